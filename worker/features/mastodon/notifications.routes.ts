// Notifications and the read marker: NoteX's notices as Mastodon's types, and "last read" kept in
// the same column the web's unread badge uses, so the app and the site agree.
import { Hono } from "hono";
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { notifications } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import type { CurrentUser, DB } from "../../env";
import { encodeCursor } from "../../lib/paging";
import { listNotifications } from "../notifications/notifications.service";
import { accountRows, originOf } from "./accounts.routes";
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
} from "./masto.http";
import { account, iso, noteStatusId, replyStatusId, type StatusRef } from "./serialise";
import { statusesOf } from "./statuses.service";

/** NoteX's actions as Mastodon's notification types (a reply mentions the one replied to, as Mastodon's do). */
const TYPES: Record<string, string> = {
  follow: "follow",
  like: "favourite",
  renote: "reblog",
  reply: "mention",
  mention: "mention",
  note: "status",
  quote: "quote",
};

type Noti = Awaited<ReturnType<typeof listNotifications>>["notis"][number];

const refOf = (n: Noti): StatusRef | null =>
  n.action === "follow" || (n.tblname !== "note" && n.tblname !== "reply") ? null : { kind: n.tblname, id: n.rowid };

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

/** A notification's place (created_at, id) for the keyset, if it is the reader's. */
async function notiKey(db: DB, uid: number, raw: string | undefined) {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const [row] = await db
    .select({ at: notifications.createdAt, id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.id, Number(raw)), eq(notifications.userId, uid)))
    .limit(1);
  return row ?? null;
}

/** Notifications as Mastodon's, with their accounts and statuses, leaving out what has no Mastodon type. */
async function entities(c: MastoContext, notis: Noti[]) {
  const known = notis.filter((n) => TYPES[n.action] && n.user.id);
  const refs = known.map(refOf).filter((r): r is StatusRef => !!r);
  const [rows, statuses] = await Promise.all([
    accountRows(
      c.var.db,
      known.map((n) => n.user.id),
    ),
    statusesOf(c.var.db, originOf(c), viewer(c).id, refs),
  ]);
  const accounts = new Map(rows.map((r) => [r.id, account(r, originOf(c))]));
  const byId = new Map(statuses.map((s) => [s.id as string, s]));
  return known.flatMap((n) => {
    const acct = accounts.get(n.user.id);
    const ref = refOf(n);
    const status = ref ? byId.get(ref.kind === "note" ? noteStatusId(ref.id) : replyStatusId(ref.id)) : undefined;
    // A notice whose person or status the reader can no longer see is left out.
    if (!acct || (ref && !status)) return [];
    return [
      {
        id: String(n.id),
        type: TYPES[n.action],
        created_at: iso(n.created_at),
        group_key: `ungrouped-${n.id}`,
        account: acct,
        ...(status ? { status } : {}),
      },
    ];
  });
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

async function page(c: MastoContext, me: CurrentUser) {
  const q = await queryOf(c, NotiQuery);
  const after = q.max_id ? await notiKey(c.var.db, me.id, q.max_id) : null;
  if (q.max_id && !after) return c.json([]);
  const res = await listNotifications(c.var.db, me, {
    page: 1,
    cursor: after ? encodeCursor(after) : undefined,
    actions: actionsFor(q.types, q.exclude_types),
    size: limitOf(c, "notifications"),
  });
  let notis = res.notis;
  // since_id / min_id: the newest page's notices above the id (NoteX's lists page downwards).
  const floor = q.min_id ?? q.since_id;
  if (floor && /^\d{1,15}$/.test(floor)) notis = notis.filter((n) => n.id > Number(floor));
  setLink(
    c,
    res.paginator.is_end || !res.notis.length ? null : String(res.notis.at(-1)?.id),
    res.notis[0] ? String(res.notis[0].id) : null,
  );
  return c.json(await entities(c, notis));
}

const MarkerInput = z.object({
  notifications: z.object({ last_read_id: z.union([z.string(), z.number()]).transform(String) }).optional(),
  "notifications[last_read_id]": z.union([z.string(), z.number()]).transform(String).optional(),
});

async function marker(db: DB, uid: number) {
  const [row] = await db.select({ seen: users.notiSeen }).from(users).where(eq(users.id, uid)).limit(1);
  return { notifications: { last_read_id: String(row?.seen ?? 0), version: 0, updated_at: new Date().toISOString() } };
}

/**
 * An app read the notifications up to `id`. The badge (users.noti_num: notices after noti_seen, kept
 * by triggers on the rows) is never recounted: a marker at or past the person's newest notice is
 * the web's "opened the list" (badge 0); one below it moves last_read_id only and leaves the badge
 * as it is until the list is read to the top (here or on the web). Both are O(1): the newest notice
 * is the first entry of the (user_id, created_at, id) index.
 */
async function markReadUpTo(db: DB, me: number, id: number) {
  const newest = sql`coalesce((select n.id from notifications n where n.user_id = ${me} and n.tblname != '_gone' order by n.created_at desc, n.id desc limit 1), 0)`;
  await db
    .update(users)
    .set({
      notiSeen: sql`max(${users.notiSeen}, ${id})`,
      notiNum: sql`case when ${id} >= ${newest} then 0 else ${users.notiNum} end`,
    })
    .where(eq(users.id, me));
}

export const notificationRoutes = new Hono<MastoEnv>()
  .get("/api/v1/notifications", scoped("read:notifications"), (c) => page(c, viewer(c)))
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
    const me = viewer(c);
    const key = await notiKey(c.var.db, me.id, c.req.param("id"));
    if (!key) throw notFoundError();
    // The page that starts just above this notice holds it first.
    const res = await listNotifications(c.var.db, me, {
      page: 1,
      cursor: encodeCursor({ at: key.at, id: key.id + 1 }),
    });
    const [one] = await entities(
      c,
      res.notis.filter((n) => n.id === key.id),
    );
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
    if (last && /^\d{1,15}$/.test(last)) await markReadUpTo(c.var.db, me, Number(last));
    return c.json(await marker(c.var.db, me));
  });
