// Issue 20 finding 1: the shared page cache never stores (or serves) a page rendered for a session,
// however the Cookie header spells the session cookie, and signed-in answers of any type are private.
import { describe, expect, it } from "vitest";
import { user, visitor } from "../factories";

let seq = 0;
const fresh = () => `/probe?v=${Date.now()}-${seq++}`;

describe("page cache and the session cookie (issue 20 §1)", () => {
  it("a visitor page is cached and public", async () => {
    const path = fresh();
    const first = await visitor().get(path);
    expect(first.headers.get("x-page-cache")).toBe("miss");
    expect((await visitor().get(path)).headers.get("x-page-cache")).toBe("hit");
  });

  const variants: [string, (sid: string) => string][] = [
    ["plain", (s) => `notex_sid=${s}`],
    ["space before =", (s) => `notex_sid =${s}`],
    ["spaces around =", (s) => `notex_sid = ${s}`],
    ["tab before =", (s) => `notex_sid\t=${s}`],
    ["leading whitespace", (s) => ` \tnotex_sid=${s}`],
    ["quoted value", (s) => `notex_sid="${s}"`],
    ["percent-encoded value", (s) => `notex_sid=${[...s].map((ch) => `%${ch.charCodeAt(0).toString(16)}`).join("")}`],
    ["after another cookie", (s) => `a=1;notex_sid=${s}`],
    ["duplicate, real one first", (s) => `notex_sid=${s}; notex_sid=bogus`],
    ["duplicate, real one second", (s) => `x=1; notex_sid =${s}; notex_sid=bogus`],
    ["upper-case name", (s) => `NOTEX_SID=${s}`],
    ["empty decoy then real", (s) => `notex_sid; notex_sid =${s}`],
  ];
  it.each(variants)("a signed-in page is never stored or served from the cache: %s", async (_name, spell) => {
    const a = await user();
    const sid = (a.cookie ?? "").split("=")[1];
    const path = fresh();
    const mine = await visitor().get(path, { cookie: spell(sid) });
    expect(mine.headers.get("x-page-cache")).toBeNull();
    expect(mine.headers.get("cache-control")).toBe("private, no-store");
    // Whoever comes next gets a visitor's page, never the one rendered for that session.
    const next = await visitor().get(path);
    expect(next.body).toBe("<p>signed in as visitor</p>");
    expect(next.headers.get("x-page-cache")).toBe("miss");
  });

  it("signed-in .data answers are private, no-store like the HTML", async () => {
    const a = await user();
    const res = await a.get(`/probe.data?v=${Date.now()}`);
    expect(res.body).toBe(`<p>signed in as ${a.username}</p>`);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
  });
});
