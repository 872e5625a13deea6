// Notifications and the read marker: NoteX's notices as Mastodon's types, and "last read" kept in
// the same column the web's unread badge uses, so the app and the site agree.
import { Hono } from "hono";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { pairOf, readOne } from "../../db/reads";
import { notes } from "../../db/schema/notes";
import { notifications, replies } from "../../db/schema/social";
import { type listNotifications, markReadUpTo, notificationsReadWith } from "../notifications/notifications.service";
import { COUNTED } from "../interactions/counted";
import { addAuthor, emptyCtx, NOTICE_COLUMNS } from "./columns";
import {
  fieldsOf,
  limitOf,
  type MastoContext,
  type MastoEnv,
  notFoundError,
  queryOf,
  scoped,
  setLink,
  viewer,
  originOf,
} from "./masto.http";
import { account, iso, type StatusRef } from "./serialise";
import { refsRead } from "./statuses.service";

/**
 * NoteX's actions as Mastodon's notification types (a reply mentions the one replied to, as
 * Mastodon's do); a counted interaction's is declared with it (interactions/counted.ts).
 */
const TYPES: Record<string, string> = {
  ...Object.fromEntries(COUNTED.flatMap((k) => (k.mastodon ? [[k.name, k.mastodon]] : []))),
  follow: "follow",
  reply: "mention",
  mention: "mention",
  note: "status",
  quote: "quote",
  move: "move",
};

type Noti = Awaited<ReturnType<typeof listNotifications>>["notis"][number];

const refOf = (n: Noti): StatusRef | null =>
  n.action === "follow" || n.action === "move" || (n.tblname !== "note" && n.tblname !== "reply")
    ? null
    : { kind: n.tblname, id: n.rowid };

const list = z
  .union([z.string(), z.array(z.string())])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));
const NotiQuery = z.object({
  max_id: z.string().max(30).optional(),
  since_id: z.string().max(30).optional(),
  min_id: z.string().max(30).optional(),
  types: list,
  exclude_types: list,
  limit: z.unknown().optional(),
});

/** A notice id from a request, or 0 (matches none). */
const noticeId = (raw: string | undefined) => (raw && /^\d{1,15}$/.test(raw) ? Number(raw) : 0);

/**
 * A page of notifications as Mastodon's, with their accounts and statuses, in one round trip: the
 * actors' accounts are read on the notices' rows, the statuses by a subquery over the same page.
 * What has no Mastodon type, or whose person or status the reader can no longer see, is left out.
 */
const entities = (c: MastoContext, q: NoticeQuery) => noticeEntities(c.var.db, originOf(c), viewer(c).id, q);

type NoticeQuery = Parameters<typeof notificationsReadWith>[2];

/** The same, for `me` without a request (the live streams render a notice as it is made). */
export async function noticeEntities(db: DB, origin: string, me: number, q: NoticeQuery) {
  const { read, about, values } = notificationsReadWith(db, me, { ...q, noFolders: true }, NOTICE_COLUMNS);
  const statuses = refsRead(
    db,
    origin,
    me,
    { notes: sql`${notes.id} in ${about("note")}`, replies: sql`${replies.id} in ${about("reply")}` },
    values,
  );
  const [{ list, rows }, found] = await readOne(db, pairOf(read, statuses));
  const ctx = emptyCtx(origin);
  list.notis.forEach((n, i) => {
    if (n.user.id) addAuthor(ctx, n.user, rows[i]);
  });
  const items = list.notis.flatMap((n) => {
    const acct = ctx.accounts.get(n.user.id);
    const ref = refOf(n);
    const status = ref ? found.get(`${ref.kind}:${ref.id}`) : undefined;
    // Every type but follow is about a status (x-folders are left out by the query); one the
    // reader can no longer see leaves its notice out.
    if (!TYPES[n.action] || !acct || (n.action !== "follow" && !status)) return [];
    return [
      {
        id: String(n.id),
        type: TYPES[n.action],
        created_at: iso(n.created_at),
        group_key: `ungrouped-${n.id}`,
        account: account(acct, ctx.origin),
        ...(status ? { status } : {}),
      },
    ];
  });
  return { list, items };
}

/**
 * The NoteX actions a client's `types[]` / `exclude_types[]` leave in: the filter goes into the
 * service's query, so a page is full of what was asked for (never a short or empty page with more
 * behind it). Actions with no Mastodon type are never asked for.
 */
function actionsFor(types: string[], exclude: string[]) {
  const include = new Set(types);
  const leave = new Set(exclude);
  return Object.entries(TYPES)
    .filter(([, type]) => (!include.size || include.has(type)) && !leave.has(type))
    .map(([action]) => action);
}

async function page(c: MastoContext) {
  const q = await queryOf(c, NotiQuery);
  // max_id: the page below that notice, its place looked up in the same statement (a notice that
  // is not the reader's leaves nothing to page from: an empty page).
  // min_id: the page right above that notice (an app catching up walks upwards without gaps).
  const above = !q.max_id && q.min_id !== undefined;
  const { list, items } = await entities(c, {
    page: 1,
    from: q.max_id
      ? { id: noticeId(q.max_id), start: "below" }
      : above
        ? { id: noticeId(q.min_id), start: "above" }
        : undefined,
    actions: actionsFor(q.types, q.exclude_types),
    size: limitOf(c, "notifications"),
  });
  // since_id: the newest page's notices above the id; min_id with max_id: above it too.
  const floor = noticeId(above ? undefined : (q.min_id ?? q.since_id));
  setLink(
    c,
    (list.paginator.is_end && !above) || !list.notis.length ? null : String(list.notis.at(-1)?.id),
    list.notis[0] ? String(list.notis[0].id) : null,
  );
  return c.json(items.filter((n) => Number(n.id) > floor));
}

const MarkerInput = z.object({
  notifications: z.object({ last_read_id: z.union([z.string(), z.number()]).transform(String) }).optional(),
  "notifications[last_read_id]": z.union([z.string(), z.number()]).transform(String).optional(),
});

async function marker(db: DB, uid: number) {
  const [row] = await db.select({ seen: users.notiSeen }).from(users).where(eq(users.id, uid)).limit(1);
  return { notifications: { last_read_id: String(row?.seen ?? 0), version: 0, updated_at: new Date().toISOString() } };
}

export const notificationRoutes = new Hono<MastoEnv>()
  .get("/api/v1/notifications", scoped("read:notifications"), (c) => page(c))
  .get("/api/v1/notifications/unread_count", scoped("read:notifications"), async (c) => {
    const [row] = await c.var.db
      .select({ n: users.notiNum })
      .from(users)
      .where(eq(users.id, viewer(c).id))
      .limit(1);
    return c.json({ count: row?.n ?? 0 });
  })
  .post("/api/v1/notifications/clear", scoped("write:notifications"), async (c) => {
    const me = viewer(c).id;
    await c.var.db.batch([
      c.var.db.delete(notifications).where(eq(notifications.userId, me)),
      c.var.db.update(users).set({ notiNum: 0 }).where(eq(users.id, me)),
    ]);
    return c.json({});
  })
  .get("/api/v1/notifications/:id", scoped("read:notifications"), async (c) => {
    const id = noticeId(c.req.param("id"));
    // The page of one that starts at this notice (one of the reader's, still to be seen).
    const { items } = await entities(c, { page: 1, from: { id, start: "at" }, size: 1 });
    const one = items.find((n) => n.id === String(id));
    if (!one) throw notFoundError();
    return c.json(one);
  })
  .post("/api/v1/notifications/:id/dismiss", scoped("write:notifications"), async (c) => {
    const raw = c.req.param("id");
    if (!/^\d{1,15}$/.test(raw)) throw notFoundError();
    // Ownership in the where: someone else's notice is simply not found.
    const gone = await c.var.db
      .delete(notifications)
      .where(and(eq(notifications.id, Number(raw)), eq(notifications.userId, viewer(c).id)))
      .returning({ id: notifications.id });
    if (!gone.length) throw notFoundError();
    return c.json({});
  })
  .get("/api/v1/markers", scoped("read:statuses"), async (c) => c.json(await marker(c.var.db, viewer(c).id)))
  .post("/api/v1/markers", scoped("write:statuses"), async (c) => {
    const me = viewer(c).id;
    const fields = MarkerInput.safeParse(await fieldsOf(c));
    const last = fields.success
      ? (fields.data.notifications?.last_read_id ?? fields.data["notifications[last_read_id]"])
      : undefined;
    if (last && /^\d{1,15}$/.test(last)) await markReadUpTo(c.var.db, me, Number(last)).run();
    return c.json(await marker(c.var.db, me));
  });
