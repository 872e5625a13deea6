import { z } from "zod";

// The colour theme is kept in a cookie, so the server renders <html data-theme> before the first
// paint and no script has to run; a signed-in choice is also kept on the account (users.theme),
// and every sign-in sets the cookie from it, so the theme follows the person to each device.
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];
export const THEME_COOKIE = "theme";
const YEAR_S = 365 * 24 * 3600;

export const ThemeForm = z.object({
  theme: z.enum(THEMES, { error: "Choose light, dark or system" }),
});

/** The theme a request's Cookie header asks for; anything else is "system". */
export function themeOf(cookie: string | null): Theme {
  const m = /(?:^|;\s*)theme=(light|dark)(?:;|$)/.exec(cookie ?? "");
  return (m?.[1] as Theme | undefined) ?? "system";
}

/** An account's stored theme as a Theme (anything unknown is "system"). */
export const asTheme = (stored: string): Theme =>
  (THEMES as readonly string[]).includes(stored) ? (stored as Theme) : "system";

/** The Set-Cookie line that remembers a choice ("system" forgets it). */
export function themeCookie(theme: Theme, secure: boolean): string {
  const attrs = `Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
  return theme === "system"
    ? `${THEME_COOKIE}=; Max-Age=0; ${attrs}`
    : `${THEME_COOKIE}=${theme}; Max-Age=${YEAR_S}; ${attrs}`;
}
