// One guard for every redirect (app/lib/url.ts safeRedirect / returnPath): the worker's own
// redirects answered through HTTP with the bypass corpus, and every redirect in the source (pages,
// actions, loaders, worker routes) checked to go through the guard or name a fixed path of this site.
import { describe, expect, it } from "vitest";
import { visitor } from "../factories";
import { HOSTILE_REDIRECTS } from "../redirects";

const SITE = "http://notex.test";
const landsOn = (location: string) => new URL(location, `${SITE}/some/page`);
/** A Location a later parse could read a host into: "//", "/\\", a backslash or a control character. */
const ambiguous = (s: string) => /^\/[/\\]|\\/.test(s) || [...s].some((ch) => ch.charCodeAt(0) < 32);

/** Raw query strings as an attacker types them (percent escapes of tabs, newlines, NUL). */
const RAW = [
  "/%09/evil.example",
  "/%0A",
  "/%0D",
  "/%00",
  "/%0D%0ASet-Cookie:%20x=1",
  "%2F%2Fevil.example",
  "/%5C/evil",
];

describe("GET /nojs?to=", () => {
  it.each([...HOSTILE_REDIRECTS.map(encodeURIComponent), ...RAW])("keeps %s on the site", async (to) => {
    const res = await visitor().get(`/nojs?to=${to}`);
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(landsOn(location).origin).toBe(SITE);
    expect(location.startsWith("/")).toBe(true);
    expect(ambiguous(location)).toBe(false);
  });

  it("returns to a same-site page with its query", async () => {
    const res = await visitor().get(`/nojs?to=${encodeURIComponent("/someone/note/3?dialog=quote#r")}`);
    expect(res.headers.get("location")).toBe("/someone/note/3?dialog=quote#r");
  });
});

// Every module that can answer a redirect, read as text.
const sources = import.meta.glob(["../../app/**/*.{ts,tsx}", "../../worker/**/*.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** A redirect target that is safe by construction: the guard's answer, or a fixed path of this site. */
const GUARDED = /^(?:safeRedirect\(|returnPath\(|`\$\{(?:safeRedirect|returnPath)\(|["'`]\/(?:[A-Za-z0-9?#]|["'`]))/;
/**
 * Redirects that leave the site by design: Google sign-in's start goes to the provider's configured
 * URL; the OAuth consent goes to the app's redirect URI, one the app registered, matched exactly by
 * the API (worker/features/mastodon/oauth.service.ts checkAuthorize).
 */
const offSite = (file: string, target: string) =>
  (file === "worker/features/auth/auth.routes.ts" && target.startsWith("(await startGoogle(")) ||
  (file === "app/routes/oauth.authorize.tsx" && target === "res.data.redirect");

describe("every redirect goes through the one guard", () => {
  const calls = Object.entries(sources).flatMap(([file, text]) =>
    [...text.matchAll(/\bredirect\(\s*([^,)\n]*)|\bLocation:\s*([^,}\n]*)/g)].map((m) => ({
      file: file.replace(/^(\.\.\/)+/, ""),
      target: (m[1] ?? m[2] ?? "").trim(),
    })),
  );

  it("finds the redirects (pages, actions, loaders and the worker's)", () => {
    expect(calls.length).toBeGreaterThan(30);
    expect(new Set(calls.map((c) => c.file))).toContain("worker/lib/shell.ts");
  });

  it("each one is the guard's answer or a fixed same-site path", () => {
    const unguarded = calls
      .filter(({ target }) => target && !GUARDED.test(target))
      .filter(({ file, target }) => !offSite(file, target))
      // The definition of a redirect helper is not a redirect.
      .filter(({ file, target }) => !(file === "app/lib/url.ts" && target === ""))
      .map(({ file, target }) => `${file}: ${target}`);
    expect(unguarded).toEqual([]);
  });
});
