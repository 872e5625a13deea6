import { useFetcher } from "@remix-run/react";
import type { ChangeEvent } from "react";
import type { Theme } from "../../worker/lib/theme";
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
 * Settings' Theme section: light, dark or the system's, kept in a cookie by /actions/theme. With
 * JavaScript a choice shows at once and is saved in the background; without it, Save theme posts.
 */
export function ThemeSetting({ theme }: { theme: Theme }) {
  const fetcher = useFetcher();
  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    apply(e.currentTarget.value);
    fetcher.submit(e.currentTarget.form);
  };
  return (
    <section className="settings-row" aria-labelledby="h-theme">
      <fetcher.Form method="post" action="/actions/theme" preventScrollReset>
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
        <div className="row">
          <button className="btn primary small" type="submit">
            Save theme
          </button>
        </div>
      </fetcher.Form>
    </section>
  );
}
