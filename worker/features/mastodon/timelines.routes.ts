// Timelines (home, public, tag), an account's statuses, bookmarks and favourites: NoteX's keyset
// lists read through Mastodon's max_id / since_id / min_id, with a Link header to page on.
import { Hono } from "hono";
import { and, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { notes } from "../../db/schema/notes";
import { bookmarks, likes } from "../../db/schema/social";
import { bindPlan, namedObjects, planOf } from "../../db/plan";
import { known, mapRead, pairOf, type Read, readOne } from "../../db/reads";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { decodeCursor, encodeCursor, type Keyset } from "../../lib/paging";
import { feedReadWith } from "../feed/feed.service";
import { PRESET_LABELS } from "../notes/notes.constants";
import type { ListedRows } from "../notes/notes.json";
import { LISTS, type ListShape, listReadWith, OWNER_LISTS } from "../notes/read.service";
import { ctxOfRows, STATUS_COLUMNS } from "./columns";
import { accountId } from "./accounts.routes";
import {
  limitOf,
  type MastoContext,
  type MastoEnv,
  notFoundError,
  queryOf,
  readable,
  scoped,
  setLink,
  viewer,
  viewerId,
  originOf,
} from "./masto.http";
import { savedRead } from "./saved";
import { labelTag, noteStatus, noteStatusId, statusRef } from "./serialise";
import { inOrder, refsRead } from "./statuses.service";

const flag = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (Array.isArray(v) ? v[0] : v) === "true" || (Array.isArray(v) ? v[0] : v) === "1");
const idParam = z.string().max(300).optional();
export const PageQuery = z.object({
  max_id: idParam,
  since_id: idParam,
  min_id: idParam,
  limit: z.unknown().optional(),
  local: flag,
  remote: flag,
  only_media: flag,
  exclude_replies: flag,
  exclude_reblogs: flag,
  pinned: flag,
});
type Page = z.output<typeof PageQuery>;

const P = (name: string) => sql.placeholder(name);

/** A note's place in a created_at-ordered list (null for anything not a note), for the page's batch. */
function noteKeyRead(db: DB, raw: string | undefined): Read<Keyset | null> {
  const ref = statusRef(raw);
  if (ref?.kind !== "note") return known(null);
  const plan = planOf("masto:noteKey", () =>
    db
      .select({ at: notes.createdAt, id: notes.id })
      .from(notes)
      .where(eq(notes.id, P("id")))
      .limit(1),
  );
  return {
    statements: [bindPlan(db, plan, { id: ref.id })],
    value: ([r]) => namedObjects<Keyset>(plan, r.results)[0] ?? null,
  };
}

/** An active account by id, or Mastodon's 404 from its (absent) row. */
function ownerRead(db: DB, id: number): Read<void> {
  const plan = planOf("masto:owner", () =>
    db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, P("id")), isNull(users.suspendedAt)))
      .limit(1),
  );
  return {
    statements: [bindPlan(db, plan, { id })],
    value: ([r]) => {
      if (!r.results.length) throw notFoundError();
    },
  };
}

/**
 * Where a page starts: below a cursor, or below a note by id (a list ordered by time looks its time
 * up), or right above a note (min_id): the oldest statuses over it, answered newest first.
 */
type Start = { cursor?: string; belowNote?: number; aboveNote?: number };

/**
 * One page of a note list for Mastodon's parameters, in one D1 round trip: max_id reads on below
 * that status; since_id answers the newest page's statuses above it, its place read in the same
 * batch; min_id the page right above it (read upwards), so an app catching up misses nothing.
 * `byId`: the list's order is the notes' id.
 */
async function notesPage(
  c: MastoContext,
  q: Page,
  read: (start: Start, size: number) => Read<ListedRows>,
  byId = false,
) {
  const db = c.var.db;
  let start: Start = {};
  if (q.max_id) {
    const ref = statusRef(q.max_id);
    // Anything but a note (a reply, a malformed id) leaves nothing to page from: an empty page
    // ends the app's scrolling, as a status that is gone does.
    if (ref?.kind !== "note") return answerPage(c, [], null);
    start = byId ? { cursor: encodeCursor({ at: ref.id, id: ref.id }) } : { belowNote: ref.id };
  } else if (q.min_id) {
    const ref = statusRef(q.min_id);
    // A reply's id or a malformed one names no place in a list of notes: nothing above it.
    if (ref?.kind !== "note") return answerPage(c, [], null);
    start = { aboveNote: ref.id };
  }
  const floorRaw = start.aboveNote === undefined ? (q.min_id ?? q.since_id) : undefined;
  const [listed, key] = await readOne(
    db,
    pairOf(read(start, limitOf(c, "statuses")), byId ? known(idKey(floorRaw)) : noteKeyRead(db, floorRaw)),
  );
  const { list } = listed;
  let items = list.notes;
  if (key)
    items = items.filter((n) =>
      byId ? n.id > key.id : n.created_at > key.at || (n.created_at === key.at && n.id > key.id),
    );
  if (q.only_media) items = items.filter((n) => n.images.length > 0 || (n.renote?.images.length ?? 0) > 0);
  if (q.exclude_reblogs) items = items.filter((n) => n.kind !== "renote");
  const ctx = ctxOfRows(originOf(c), listed);
  const statuses = items.map((n) => noteStatus(n, ctx));
  // The feed's cursor may lie below its last row (a window with nothing to show): page from there.
  // Above a note there is always an older page: the note itself and what lies below.
  const older =
    start.aboveNote !== undefined
      ? ((statuses.at(-1)?.id as string | undefined) ?? null)
      : list.paginator.is_end
        ? null
        : byId && list.cursor
          ? noteStatusId(decodeCursor(list.cursor)?.id ?? 0)
          : ((statuses.at(-1)?.id as string | undefined) ?? null);
  return answerPage(c, statuses, older);
}

const idKey = (raw: string | undefined) => {
  const ref = statusRef(raw);
  return ref?.kind === "note" ? { at: ref.id, id: ref.id } : null;
};

function answerPage(c: MastoContext, statuses: Record<string, unknown>[], older: string | null) {
  setLink(c, older, (statuses[0]?.id as string | undefined) ?? null);
  return c.json(statuses);
}

/** A hashtag's list: a preset x-label named as a tag (#howto) reads the label, any other the tag. */
function tagList(tag: string): { shape: ListShape; values: Record<string, unknown> } {
  const label = PRESET_LABELS.find((l) => labelTag(l) === tag.toLowerCase());
  return label ? { shape: LISTS.label, values: { label } } : { shape: LISTS.tag, values: { tag: tag.toLowerCase() } };
}

/** Lists whose order is not a status's own (bookmarks, favourites) page by an opaque cursor in max_id. */
const opaque = (raw: string | undefined) => (raw && /^[\w-]{1,200}$/.test(raw) ? raw : undefined);

/** Bookmarks or favourites: notes and replies, newest saved first, paged by an opaque cursor in max_id. */
async function savedList(c: MastoContext, table: typeof bookmarks | typeof likes) {
  const q = await queryOf(c, PageQuery);
  const me = viewer(c).id;
  const saved = savedRead(c.var.db, table, me, opaque(q.max_id), limitOf(c, "statuses"));
  const [page, found] = await readOne(c.var.db, pairOf(saved.read, refsRead(c.var.db, originOf(c), me, saved.where)));
  // What the person may no longer open (hidden, blocked) is left out of the page, not the paging.
  setLink(c, page.cursor, null);
  return c.json(inOrder(page.refs, found));
}

export const timelineRoutes = new Hono<MastoEnv>()
  .get("/api/v1/timelines/home", scoped("read:statuses"), async (c) => {
    const me = viewer(c).id;
    return notesPage(
      c,
      await queryOf(c, PageQuery),
      (start, size) =>
        feedReadWith(c.var.db, me, { page: 1, cursor: start.cursor, above: start.aboveNote }, size, STATUS_COLUMNS),
      true,
    );
  })
  .get("/api/v1/timelines/public", readable("read:statuses"), async (c) => {
    const q = await queryOf(c, PageQuery);
    // Every NoteX account is local: remote=true (other servers only) is an empty list.
    if (q.remote) return c.json([]);
    return notesPage(c, q, (start, size) =>
      listReadWith(c.var.db, LISTS.discover, {}, { page: 1, ...start }, viewerId(c), size, STATUS_COLUMNS),
    );
  })
  .get("/api/v1/timelines/tag/:hashtag", readable("read:statuses"), async (c) => {
    const tag = c.req.param("hashtag").slice(0, 100);
    const { shape, values } = tagList(tag);
    return notesPage(c, await queryOf(c, PageQuery), (start, size) =>
      listReadWith(c.var.db, shape, values, { page: 1, ...start }, viewerId(c), size, STATUS_COLUMNS),
    );
  })
  .get("/api/v1/accounts/:id/statuses", readable("read:statuses"), async (c) => {
    const q = await queryOf(c, PageQuery);
    const id = accountId(c.req.param("id"));
    if (!id) throw notFoundError();
    const owner = ownerRead(c.var.db, id);
    // NoteX has no pinned statuses: the owner's list of them is empty (once the owner is there).
    if (q.pinned)
      return c.json(
        await readOne(
          c.var.db,
          mapRead(owner, () => []),
        ),
      );
    const [all] = OWNER_LISTS.byId;
    // The owner's row is the batch's first statement: a missing or suspended one refuses the page.
    return notesPage(c, q, (start, size) =>
      mapRead(
        pairOf(
          owner,
          listReadWith(c.var.db, all, { uid: id }, { page: 1, ...start }, viewerId(c), size, STATUS_COLUMNS),
        ),
        ([, listed]) => listed,
      ),
    );
  })
  .get("/api/v1/bookmarks", scoped("read:bookmarks"), (c) => savedList(c, bookmarks))
  .get("/api/v1/favourites", scoped("read:favourites"), (c) => savedList(c, likes));
