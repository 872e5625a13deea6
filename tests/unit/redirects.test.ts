// Issue 20 §2: the one redirect guard every action uses, fed the bypass corpus.
import { describe, expect, it } from "vitest";
import { returnPath, safeRedirect } from "~/lib/url";
import { HOSTILE_REDIRECTS, SAME_SITE } from "../redirects";

const SITE = "https://notex.example";
/** Where a browser goes with this Location header, on this site. */
const landsOn = (location: string) => new URL(location, `${SITE}/some/page`);
/** A Location a later parse could read a host into: "//", "/\\", a backslash or a control character. */
const ambiguous = (s: string) => /^\/[/\\]|\\/.test(s) || [...s].some((ch) => ch.charCodeAt(0) < 32);

describe("safeRedirect (issue 20 §2)", () => {
  it.each(HOSTILE_REDIRECTS.map((r) => [JSON.stringify(r), r]))("keeps %s on the site", (_shown, to) => {
    const out = safeRedirect(to);
    expect(landsOn(out).origin).toBe(SITE);
    expect(out.startsWith("/")).toBe(true);
    expect(ambiguous(out)).toBe(false);
    // With query parameters added (error and dialog returns), the same holds.
    const back = returnPath(to, { folder_error: "not_found" });
    expect(landsOn(back).origin).toBe(SITE);
    expect(ambiguous(back)).toBe(false);
  });

  it.each(SAME_SITE)("lets %s through unchanged", (to) => {
    expect(safeRedirect(to)).toBe(to);
  });

  it("falls back for anything that is not a path", () => {
    for (const bad of ["", null, undefined, "evil.example", "javascript:alert(1)"]) expect(safeRedirect(bad)).toBe("/");
    expect(safeRedirect("https://evil.example", "/home")).toBe("/home");
  });

  it("adds parameters to a same-site return path", () => {
    expect(returnPath("/x/y?a=1", { dialog: "quote", id: "3" })).toBe("/x/y?a=1&dialog=quote&id=3");
    expect(returnPath("//evil.example/x?a=1", { e: "1" })).toBe("/?e=1");
  });
});
