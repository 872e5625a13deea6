import { useFetcher } from "@remix-run/react";
import { type ChangeEvent, useEffect, useRef } from "react";
import type { Theme } from "../../worker/lib/theme";
import { useHydrated } from "~/lib/hydrated";
import { Icon } from "./Icon";
import { JsFlag } from "./JsFlag";

const OPTIONS = [
  { value: "system", label: "System", icon: "monitor" },
  { value: "light", label: "Light", icon: "sun" },
  { value: "dark", label: "Dark", icon: "moon" },
] as const;

/** The page takes `theme` at once, as the server renders it: an attribute on <html> and its color-scheme. */
function apply(theme: string) {
  const html = document.documentElement;
  if (theme === "system") html.removeAttribute("data-theme");
  else html.setAttribute("data-theme", theme);
  document
    .querySelector('meta[name="color-scheme"]')
    ?.setAttribute("content", theme === "system" ? "light dark" : theme);
}

/**
 * Settings' Theme section: light, dark or the system's, kept in a cookie and on the account by
 * /actions/theme. With JavaScript a choice shows at once and is saved in the background (there is
 * nothing left to press); without it, Save theme posts.
 */
export function ThemeSetting({ theme }: { theme: Theme }) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const form = useRef<HTMLFormElement>(null);
  // One save at a time, the newest choice last: a second submit would abort the first in the
  // browser while the server still stored it, so quick clicks could end on an older choice.
  const sent = useRef<string>(theme);
  const send = () => {
    const chosen = form.current && String(new FormData(form.current).get("theme"));
    if (!chosen || chosen === sent.current || fetcher.state !== "idle") return;
    sent.current = chosen;
    fetcher.submit(form.current);
  };
  const sendRef = useRef(send);
  sendRef.current = send;
  useEffect(() => {
    if (fetcher.state === "idle") sendRef.current();
  }, [fetcher.state]);
  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    apply(e.currentTarget.value);
    send();
  };
  return (
    <section className="settings-row" aria-labelledby="h-theme">
      <fetcher.Form ref={form} method="post" action="/actions/theme" preventScrollReset>
        <input type="hidden" name="redirectTo" value="/settings?saved=theme" />
        <JsFlag />
        <fieldset className="theme-choice">
          <legend id="h-theme">Theme</legend>
          {OPTIONS.map(({ value, label, icon }) => (
            <label key={value}>
              <input type="radio" name="theme" value={value} defaultChecked={theme === value} onChange={choose} />
              <Icon name={icon} size={18} /> {label}
            </label>
          ))}
        </fieldset>
        {!hydrated && (
          <div className="row">
            <button className="btn primary small" type="submit">
              Save theme
            </button>
          </div>
        )}
      </fetcher.Form>
    </section>
  );
}
