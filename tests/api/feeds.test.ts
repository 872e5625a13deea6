import { XMLParser, XMLValidator } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { tripsOf } from "../../worker/db/meter";
import { type TestUser, user, visitor } from "../factories";

const parser = new XMLParser({ ignoreAttributes: false, isArray: (name) => ["item", "sitemap", "url"].includes(name) });

/** A well-formed XML answer of the given type, parsed. */
async function xml(path: string, type = "application/rss+xml") {
  const res = await visitor().get(path);
  expect(res.status, path).toBe(200);
  expect(res.headers.get("content-type")).toBe(`${type}; charset=utf-8`);
  expect(XMLValidator.validate(res.body), path).toBe(true);
  return parser.parse(res.body);
}

const note = async (u: TestUser, content: string, extra: Record<string, unknown> = {}) => {
  const res = await u.post("/v1/notes", { label: "how to", content, ...extra });
  expect(res.status).toBe(201);
  return res.body.note.id as number;
};

describe("RSS feeds", () => {
  it("a user's feed: the latest 50 notes, newest first, full sanitised HTML with absolute links", async () => {
    const a = await user({ name: "Feed <Writer> & Co" });
    const ids: number[] = [];
    for (let i = 0; i < 52; i++) ids.push(await note(a, `<p>note ${i}</p>`));
    const last = await note(
      a,
      `<p>Hello #feeds <b>bold</b> ]]&gt; &amp; <script>alert(1)</script>\u0001</p><p>second line</p>`,
    );
    const doc = await xml(`/${a.username}/rss`);
    const ch = doc.rss.channel;
    expect(doc.rss["@_version"]).toBe("2.0");
    expect(ch.title).toBe(`Feed <Writer> & Co (@${a.username}) · NoteX`);
    expect(ch.link).toBe(`http://notex.test/${a.username}`);
    expect(ch["atom:link"]["@_href"]).toBe(`http://notex.test/${a.username}/rss`);
    expect(ch.item).toHaveLength(50);
    const top = ch.item[0];
    expect(top.link).toBe(`http://notex.test/${a.username}/note/${last}`);
    expect(top.guid["#text"]).toBe(top.link);
    expect(top.title).toBe("Hello #feeds bold ]]> &");
    expect(new Date(top.pubDate).getTime()).toBeGreaterThan(0);
    expect(top.description).toContain('<a href="http://notex.test/tag/feeds" class="hashtag">#feeds</a>');
    expect(top.description).toContain("<b>bold</b>");
    expect(top.description).not.toContain("<script");
    expect(ch.item[1].link).toBe(`http://notex.test/${a.username}/note/${ids[51]}`);
  });

  it("tag, x-label and x-folder feeds; unknown ones are 404", async () => {
    const a = await user();
    const tag = `t${Date.now().toString(36)}`;
    const folder = (await a.post("/v1/folders", { type: "Project", name: `Feed ${tag}`, descr: "", link: "" })).body;
    const id = await note(a, `<p>#${tag} filed</p>`, { folders: [folder.id] });
    await note(a, "<p>not filed</p>");
    const byTag = await xml(`/tag/${tag}/rss`);
    expect(byTag.rss.channel.item.map((i: { link: string }) => i.link)).toEqual([
      `http://notex.test/${a.username}/note/${id}`,
    ]);
    const byFolder = await xml(`/${a.username}/x/${folder.slug}/rss`);
    expect(byFolder.rss.channel.title).toBe(`Feed ${tag} · Project of @${a.username} · NoteX`);
    expect(byFolder.rss.channel.item).toHaveLength(1);
    const byLabel = await xml("/xlabel/how%20to/rss");
    expect(byLabel.rss.channel.item[0].category).toBe("how to");
    expect(byLabel.rss.channel.link).toBe("http://notex.test/xlabel/how%20to");
    const empty = await xml(`/tag/none${tag}/rss`);
    expect(empty.rss.channel.item).toBeUndefined();
    for (const path of ["/nosuchuser99/rss", `/${a.username}/x/nope/rss`, "/tag/%E0%A4%A/rss"]) {
      expect((await visitor().get(path)).status, path).toBe(404);
    }
  });
});

describe("RSS feeds: what they cost", () => {
  it("each feed is one D1 round trip; renotes are left out and the feed reads on past them", async () => {
    const a = await user();
    const b = await user();
    const tag = `c${Date.now().toString(36)}`;
    const folder = (await a.post("/v1/folders", { type: "Skill", name: `Cost ${tag}`, descr: "", link: "" })).body;
    const own: number[] = [];
    for (let i = 0; i < 45; i++) own.push(await note(a, `<p>#${tag} own ${i}</p>`, { folders: [folder.id] }));
    // Ten renotes, newer than every note of a's own: the first 50 rows hold only 40 notes.
    for (let i = 0; i < 10; i++) {
      const res = await a.post("/v1/renotes", { renote_id: await note(b, `<p>b ${i}</p>`), content: "" });
      expect(res.status).toBe(201);
    }
    for (const path of [`/${a.username}/x/${folder.slug}/rss`, `/tag/${tag}/rss`, "/xlabel/how%20to/rss"]) {
      const res = await visitor().get(path);
      expect(res.status, path).toBe(200);
      expect(tripsOf(res.headers.get("server-timing")), path).toBe(1);
    }
    // The owner's feed: 45 notes of their own and no renote, in two trips (the renotes took room).
    const res = await visitor().get(`/${a.username}/rss`);
    expect(res.status).toBe(200);
    expect(tripsOf(res.headers.get("server-timing"))).toBe(2);
    const items = parser.parse(res.body).rss.channel.item as { link: string }[];
    expect(items.map((i) => i.link)).toEqual(own.reverse().map((id) => `http://notex.test/${a.username}/note/${id}`));
    // Without renotes in the way, a person's feed is one trip too.
    const quiet = await visitor().get(`/${b.username}/rss`);
    expect(tripsOf(quiet.headers.get("server-timing"))).toBe(1);
    expect(parser.parse(quiet.body).rss.channel.item).toHaveLength(10);
  });
});

describe("sitemap and robots", () => {
  it("an index of id-range parts, each listing public URLs", async () => {
    const a = await user();
    const id = await note(a, "<p>mapped</p>");
    const folder = (await a.post("/v1/folders", { type: "Skill", name: "Mapped skill", descr: "", link: "" })).body;
    const index = await xml("/sitemap.xml", "application/xml");
    const locs: string[] = index.sitemapindex.sitemap.map((s: { loc: string }) => s.loc);
    expect(locs).toContain("http://notex.test/sitemaps/pages.xml");
    // A note made by the worker's ids is listed by the day its id was made (lib/ids.ts).
    const day = Math.floor(id / (86_400_000 * 4096));
    expect(locs).toContain(`http://notex.test/sitemaps/daily-${day}.xml`);
    const notes = await xml(`/sitemaps/daily-${day}.xml`, "application/xml");
    const urls = notes.urlset.url.map((u: { loc: string }) => u.loc);
    expect(urls).toContain(`http://notex.test/${a.username}/note/${id}`);
    expect(notes.urlset.url[0].lastmod).toMatch(/^\d{4}-\d\d-\d\d$/);
    const users = (await xml("/sitemaps/users-0.xml", "application/xml")).urlset.url.map((u: { loc: string }) => u.loc);
    expect(users).toContain(`http://notex.test/${a.username}`);
    const folders = (await xml("/sitemaps/folders-0.xml", "application/xml")).urlset.url.map(
      (u: { loc: string }) => u.loc,
    );
    expect(folders).toContain(`http://notex.test/${a.username}/x/${folder.slug}`);
    // A range past the end is an empty part; an unknown part is 404.
    expect((await xml("/sitemaps/notes-999.xml", "application/xml")).urlset.url).toBeUndefined();
    expect((await xml(`/sitemaps/daily-${day + 1000}.xml`, "application/xml")).urlset.url).toBeUndefined();
    for (const path of ["/sitemaps/secrets-0.xml", "/sitemaps/notes.xml", "/sitemaps/pages-1.xml"]) {
      expect((await visitor().get(path)).status, path).toBe(404);
    }
    const robots = await visitor().get("/robots.txt");
    expect(robots.status).toBe(200);
    expect(robots.body).toContain("Sitemap: http://notex.test/sitemap.xml");
    expect(robots.body).toContain("Disallow: /search");
  });
});
