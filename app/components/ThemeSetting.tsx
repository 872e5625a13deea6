import { Form } from "@remix-run/react";
import type { Theme } from "../../worker/lib/theme";
import { Icon } from "./Icon";

const OPTIONS = [
  { value: "system", label: "System", icon: "monitor" },
  { value: "light", label: "Light", icon: "sun" },
  { value: "dark", label: "Dark", icon: "moon" },
] as const;

/** Settings' Theme section: light, dark or the system's, kept in a cookie by /actions/theme. */
export function ThemeSetting({ theme }: { theme: Theme }) {
  return (
    <section className="settings-row" aria-labelledby="h-theme">
      <Form method="post" action="/actions/theme" preventScrollReset>
        <input type="hidden" name="redirectTo" value="/settings?saved=theme" />
        <fieldset className="theme-choice">
          <legend id="h-theme">Theme</legend>
          {OPTIONS.map(({ value, label, icon }) => (
            <label key={value}>
              <input type="radio" name="theme" value={value} defaultChecked={theme === value} />
              <Icon name={icon} size={18} /> {label}
            </label>
          ))}
        </fieldset>
        <div className="row">
          <button className="btn primary small" type="submit">
            Save theme
          </button>
        </div>
      </Form>
    </section>
  );
}
