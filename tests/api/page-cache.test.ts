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

describe("page cache keys cannot be poisoned through internal parameters", () => {
  it("a visitor's ?__shell=1 never becomes the signed-in shell", async () => {
    const path = fresh();
    const poison = await visitor().get(`${path}&__shell=1`);
    expect(poison.body).toBe("<p>signed in as visitor</p>");
    // The victim: signed in, JavaScript on, the same page without the parameter.
    const victim = await user();
    const res = await victim.get(path, { cookie: `${victim.cookie}; nx_js=1` });
    expect(res.body).toBe("<p>signed in as shell</p>");
  });

  it("a visitor's ?__theme=dark never becomes the dark theme's copy", async () => {
    const path = fresh();
    expect((await visitor().get(`${path}&__theme=dark`)).headers.get("x-page-cache")).toBe("miss");
    // The victim's dark page is rendered for them (a miss), never the copy the system theme rendered.
    const res = await visitor().get(path, { cookie: "theme=dark" });
    expect(res.headers.get("x-page-cache")).toBe("miss");
    expect((await visitor().get(path, { cookie: "theme=dark" })).headers.get("x-page-cache")).toBe("hit");
  });

  it("a page whose own address spells a key's variant is still only that address's copy", async () => {
    const path = `/probe/page-cache/dark/shell/probe?v=${Date.now()}-${seq++}`;
    expect((await visitor().get(path)).body).toBe("<p>signed in as visitor</p>");
    const victim = await user();
    const res = await victim.get(path.replace("/probe/page-cache/dark/shell", ""), {
      cookie: `${victim.cookie}; nx_js=1; theme=dark`,
    });
    expect(res.body).toBe("<p>signed in as shell</p>");
  });
});
