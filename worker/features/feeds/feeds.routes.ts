// RSS 2.0 feeds of a user, a tag, an x-label and an x-folder (issue 18 §3), beside the pages they
// follow: /{username}/rss, /tag/{tag}/rss, /xlabel/{label}/rss, /{username}/x/{slug}/rss.
import { type Context, Hono } from "hono";
import { sql } from "drizzle-orm";
import { dbFor } from "../../db/client";
import { users } from "../../db/schema/users";
import type { AppEnv, DB } from "../../env";
import { notFound } from "../../lib/errors";
import { bindPlan, namedObjects, planFrom } from "../../db/plan";
import { known, type Outcome, type Read, readTogether } from "../../db/reads";
import { FOLDER_AT } from "../folders/folders.lists";
import { folderRead } from "../folders/folders.service";
import { Label } from "../notes/notes.schema";
import { LISTS, type ListShape, listNotes, listRead, OWNER_LISTS } from "../notes/read.service";
import type { NoteJson } from "../notes/notes.types";
import { type Channel, rss } from "./feeds.xml";
import { siteOrigin } from "../accounts/accounts.service";
import { formerOwner, MOVED_CACHE } from "../users/users.service";
import { safeRedirect } from "../../../app/lib/url";

/** Items per feed. */
export const FEED_SIZE = 50;

/**
 * The newest FEED_SIZE notes of a list (renotes left out: they have no text of their own). Keyset
 * pages of the list itself, FEED_SIZE at a time, so a feed reads what its page reads, mostly in
 * one round trip; only renotes among them make it read on.
 */
async function latest<T>(
  db: DB,
  shape: ListShape,
  values: Record<string, unknown>,
  owner: Read<T>,
): Promise<{ owner: Outcome<T>; notes: NoteJson[] }> {
  // The feed's owner (a person, a folder) goes in the first page's batch.
  const first = await readTogether(db, {
    owner,
    list: listRead(db, shape, values, { page: 1 }, null, FEED_SIZE),
  });
  if (!first.list.ok) throw first.list.error;
  let list = first.list.data;
  const out = list.notes.filter((n) => n.kind !== "renote");
  for (let page = 2; out.length < FEED_SIZE && list.cursor; page++) {
    list = await listNotes(db, shape, values, { page, cursor: list.cursor }, null, FEED_SIZE);
    out.push(...list.notes.filter((n) => n.kind !== "renote"));
  }
  return { owner: first.owner, notes: out.slice(0, FEED_SIZE) };
}

function answer(c: Context<AppEnv>, channel: Omit<Channel, "self" | "link"> & { path: string }, notes: NoteJson[]) {
  const origin = siteOrigin(c.env, c.req.url);
  const body = rss({ ...channel, link: `${origin}${channel.path}`, self: `${origin}${c.req.path}` }, notes, origin);
  return c.body(body, 200, {
    "Content-Type": "application/rss+xml; charset=utf-8",
    // Readers poll; five minutes old is fresh enough for a feed.
    "Cache-Control": "public, max-age=300",
  });
}

/**
 * A path parameter as Hono hands it over: already decoded (a label "100% done" arrives as such;
 * decoding it again was a 404). An address whose percent-encoding is broken stays a 404.
 */
function param(c: Context<AppEnv>, name: string): string {
  try {
    decodeURI(new URL(c.req.url).pathname);
  } catch {
    throw notFound();
  }
  return c.req.param(name) ?? "";
}

/**
 * A feed under a renamed account's former name moves with it (issue 21 item 16): a 301 to the
 * same feed under the name it has now, else the 404 it was.
 */
async function movedFeed(c: Context<AppEnv>, name: string, rest: string) {
  const owner = await formerOwner(dbFor(c.env.DB), name);
  if (!owner) throw notFound("User not found");
  c.header("Cache-Control", MOVED_CACHE);
  return c.redirect(safeRedirect(`/${owner.username}${rest}`), 301);
}

/** The person a user's feed is about, by the name in its address; a suspended account's feed is gone (issue 16). */
function feedOwnerRead(db: DB, name: string): Read<{ id: number; username: string; fullname: string; descr: string }> {
  const plan = planFrom(
    db
      .select({ id: users.id, username: users.username, fullname: users.fullname, descr: users.descr })
      .from(users)
      .where(sql`lower(${users.username}) = lower(${name}) and ${users.suspendedAt} is null`)
      .limit(1),
  );
  return {
    statements: [bindPlan(db, plan, {})],
    value: ([r]) => {
      const [row] = namedObjects<{ id: number; username: string; fullname: string; descr: string }>(plan, r.results);
      if (!row) throw notFound("User not found");
      return row;
    },
  };
}

export const feedRoutes = new Hono<AppEnv>()
  .get("/tag/:tag/rss", async (c) => {
    const tag = param(c, "tag").toLowerCase();
    if (!tag || tag.length > 100) throw notFound();
    const { notes } = await latest(dbFor(c.env.DB), LISTS.tag, { tag }, known(null));
    return answer(
      c,
      { title: `#${tag} · NoteX`, description: `Notes tagged #${tag}`, path: `/tag/${encodeURIComponent(tag)}` },
      notes,
    );
  })
  .get("/xlabel/:label/rss", async (c) => {
    const label = Label.safeParse(param(c, "label"));
    if (!label.success) throw notFound();
    const { notes } = await latest(dbFor(c.env.DB), LISTS.label, { label: label.data }, known(null));
    return answer(
      c,
      {
        title: `${label.data} · NoteX`,
        description: `Notes under the x-label “${label.data}”`,
        path: `/xlabel/${encodeURIComponent(label.data)}`,
      },
      notes,
    );
  })
  // The owner and the first page of the list go to D1 in one batch (latest), the list by the name in
  // the address (decision 012), so a feed is one round trip.
  .get("/:username/rss", async (c) => {
    const name = param(c, "username");
    const db = dbFor(c.env.DB);
    const { owner, notes } = await latest(db, OWNER_LISTS.byName[0], { username: name }, feedOwnerRead(db, name));
    const u = owner.ok ? owner.data : null;
    if (!u) return movedFeed(c, name, "/rss");
    return answer(
      c,
      {
        title: `${u.fullname} (@${u.username}) · NoteX`,
        description: u.descr || `Notes by @${u.username}`,
        path: `/${u.username}`,
      },
      notes,
    );
  })
  .get("/:username/x/:slug/rss", async (c) => {
    const name = param(c, "username");
    const slug = param(c, "slug");
    const db = dbFor(c.env.DB);
    const found = await latest(db, FOLDER_AT, { slug, username: name }, folderRead(db, { slug, username: name }, null));
    const folder = found.owner.ok ? found.owner.data : null;
    const { notes } = found;
    if (!folder) return movedFeed(c, name, `/x/${encodeURIComponent(slug)}/rss`);
    const owner = folder.user?.username ?? "";
    return answer(
      c,
      {
        title: `${folder.name} · ${folder.type} of @${owner} · NoteX`,
        description: folder.descr || `Notes filed in ${folder.name}`,
        path: `/${owner}/x/${folder.slug}`,
      },
      notes,
    );
  });
