// /robots.txt, /sitemap.xml and its parts (issue 18 §5). The index lists fixed id ranges of
// SITEMAP_SPAN ids per part, so it needs only each table's max id, and a part reads one primary-key
// range: at 1M notes the index has ~100 notes parts of at most 10,000 URLs each (the protocol
// allows 50,000), and no request ever counts or sorts a table. Notes made since ids come from the
// worker (lib/ids.ts: sparse, time-ordered) are listed by the day their id was made instead
// (`daily-{days since the ids' epoch}`), from the first such note's day to the last's.
import { type Context, Hono } from "hono";
import { and, gt, isNull, lte, ne, sql } from "drizzle-orm";
import { dbFor } from "../../db/client";
import { folders } from "../../db/schema/folders";
import { notes } from "../../db/schema/notes";
import { users } from "../../db/schema/users";
import type { AppEnv } from "../../env";
import { notFound } from "../../lib/errors";
import { xmlEscape } from "../feeds/feeds.xml";
import { RENOTE } from "../notes/notes.constants";
import { siteOrigin } from "../accounts/accounts.service";
import { noteInList } from "../safety/visibility";
import { LEGACY_REPLIES } from "../../lib/ids";

export const SITEMAP_SPAN = 10_000;
const KINDS = ["users", "notes", "folders", "daily"] as const;
type Kind = (typeof KINDS)[number];
/** A day's worth of worker ids (a part per day since the ids' epoch), at most the protocol's 50,000 URLs. */
const DAY_IDS = 86_400_000 * 4096;
const DAY_MAX = 50_000;

const xml = (c: Context, body: string) =>
  c.body(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`, 200, {
    "Content-Type": "application/xml; charset=utf-8",
    "Cache-Control": "public, max-age=3600",
  });
const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The public URLs of one id range of a table, each with its last change. */
async function part(c: Context<AppEnv>, kind: Kind, n: number): Promise<{ loc: string; at: number }[]> {
  const db = dbFor(c.env.DB);
  const [lo, hi] =
    kind === "daily" ? [n * DAY_IDS - 1, (n + 1) * DAY_IDS - 1] : [n * SITEMAP_SPAN, (n + 1) * SITEMAP_SPAN];
  if (kind === "users") {
    const rows = await db
      .select({ username: users.username, at: users.createdAt })
      .from(users)
      // A suspended account's profile answers 404 (issue 16): not listed.
      .where(and(gt(users.id, lo), lte(users.id, hi), isNull(users.suspendedAt)))
      .orderBy(users.id);
    return rows.map((r) => ({ loc: `/${r.username}`, at: r.at }));
  }
  if (kind === "notes" || kind === "daily") {
    const rows = await db
      .select({
        id: notes.id,
        username: users.username,
        at: sql<number>`coalesce(${notes.updatedAt}, ${notes.createdAt})`,
      })
      .from(notes)
      .innerJoin(users, sql`${users.id} = ${notes.userId}`)
      .where(
        and(
          gt(notes.id, lo),
          lte(notes.id, kind === "notes" ? Math.min(hi, LEGACY_REPLIES) : hi),
          ne(notes.kind, RENOTE),
          noteInList(sql`"notes"`, null, undefined, sql`"users"`),
        ),
      )
      .orderBy(notes.id)
      .limit(DAY_MAX);
    return rows.map((r) => ({ loc: `/${r.username}/note/${r.id}`, at: r.at }));
  }
  const rows = await db
    .select({
      slug: folders.slug,
      username: users.username,
      at: sql<number>`max(${folders.createdAt}, ${folders.notedAt})`,
    })
    .from(folders)
    .innerJoin(users, sql`${users.id} = ${folders.userId}`)
    .where(and(gt(folders.id, lo), lte(folders.id, hi), isNull(users.suspendedAt)))
    .orderBy(folders.id);
  return rows.map((r) => ({ loc: `/${r.username}/x/${encodeURIComponent(r.slug)}`, at: r.at }));
}

export const sitemapRoutes = new Hono<AppEnv>()
  .get("/robots.txt", (c) => {
    const origin = siteOrigin(c.env, c.req.url);
    // Search results, settings, dialogs and the API are nobody's landing page.
    return c.text(
      [
        "User-agent: *",
        "Allow: /",
        "Disallow: /v1/",
        "Disallow: /search",
        "Disallow: /settings",
        "Disallow: /notifications",
        "Disallow: /bookmarks",
        "Disallow: /actions/",
        "Disallow: /*?dialog=",
        "",
        `Sitemap: ${origin}/sitemap.xml`,
        "",
      ].join("\n"),
      200,
      { "Cache-Control": "public, max-age=86400" },
    );
  })
  .get("/sitemap.xml", async (c) => {
    const origin = siteOrigin(c.env, c.req.url);
    const [top] = await dbFor(c.env.DB)
      .select({
        users: sql<number>`(select coalesce(max(id), 0) from users)`,
        notes: sql<number>`(select coalesce(max(id), 0) from notes where id < ${LEGACY_REPLIES})`,
        folders: sql<number>`(select coalesce(max(id), 0) from folders)`,
        first: sql<number | null>`(select min(id) from notes where id >= ${LEGACY_REPLIES})`,
        last: sql<number | null>`(select max(id) from notes where id >= ${LEGACY_REPLIES})`,
      })
      .from(sql`(select 1)`);
    const parts = [`${origin}/sitemaps/pages.xml`];
    for (const kind of ["users", "notes", "folders"] as const) {
      for (let n = 0; n * SITEMAP_SPAN < top[kind]; n++) parts.push(`${origin}/sitemaps/${kind}-${n}.xml`);
    }
    if (top.first !== null && top.last !== null) {
      const day = (id: number) => Math.floor(id / DAY_IDS);
      for (let n = day(top.first); n <= day(top.last); n++) parts.push(`${origin}/sitemaps/daily-${n}.xml`);
    }
    return xml(
      c,
      `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${parts
        .map((loc) => `<sitemap><loc>${xmlEscape(loc)}</loc></sitemap>`)
        .join("\n")}\n</sitemapindex>\n`,
    );
  })
  .get("/sitemaps/:file{[a-z]+(?:-[0-9]{1,7})?\\.xml}", async (c) => {
    const origin = siteOrigin(c.env, c.req.url);
    const [, name, num] = /^([a-z]+)(?:-(\d+))?\.xml$/.exec(c.req.param("file")) ?? [];
    let urls: { loc: string; at?: number }[];
    if (name === "pages" && num === undefined) urls = ["/", "/about", "/terms", "/policy"].map((loc) => ({ loc }));
    else if (KINDS.includes(name as Kind) && num !== undefined) urls = await part(c, name as Kind, Number(num));
    else throw notFound();
    return xml(
      c,
      `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls
        .map(
          (u) => `<url><loc>${xmlEscape(origin + u.loc)}</loc>${u.at ? `<lastmod>${day(u.at)}</lastmod>` : ""}</url>`,
        )
        .join("\n")}\n</urlset>\n`,
    );
  });
