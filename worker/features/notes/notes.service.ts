import { and, desc, eq, getTableColumns, isNull, type SQL, sql } from "drizzle-orm";
import { bindPlan, named, planOf } from "../../db/plan";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { BatchItem } from "drizzle-orm/batch";
import { noteTags, notes } from "../../db/schema/notes";
import { noteVersions } from "../../db/schema/safety";
import { likes } from "../../db/schema/social";
import { userLabels, users } from "../../db/schema/users";
import { runBatch } from "../../db/client";
import { minusChanges, plus, plusChanges } from "../../db/counters";
import type { CurrentUser, DB, Env } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { type RideAlong, sessionColumn } from "../../lib/session";
import { likedBy } from "../likes/likes.service";
import { refuseBlocked } from "../safety/safety.service";
import { blockState, noteInList, openable, originalVisible, type Viewer } from "../safety/visibility";
import { type Keyset, PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import { folderSyncStatements, folderUnfileStatements } from "../folders/folders.links";
import {
  mentionStatements,
  noteCreatedStatements,
  noteDeletedStatements,
  notifyStatements,
  repliesDeletedStatements,
  unnotifyStatements,
} from "../notifications/notifications.links";
import { linkMentions } from "../mentions/mentions.service";
import { createUploads, deleteImages, ownedUploaded, type UploadSlot } from "../uploads/uploads.links";
import type { NoteData } from "./notes.schema";
import type { NoteJson, NoteList } from "./notes.types";

type NoteRow = typeof notes.$inferSelect;

const KIND = ["note", "renote", "quote"] as const;
export const RENOTE = 1;
export const QUOTE = 2;

/**
 * A note's viewer state and folders as correlated subqueries on `n` (a notes row): each is one
 * primary-key or index lookup, evaluated only for the rows a page returns, so a list and all it
 * shows cost one D1 round trip.
 */
function extras(n: SQL, viewer: unknown) {
  return {
    liked: viewer ? likedBy(viewer, "note", sql`${n}.id`) : sql`0`,
    renoted: viewer
      ? sql`exists(select 1 from notes r where r.user_id = ${viewer} and r.kind = ${RENOTE} and r.renote_id = ${n}.id)`
      : sql`0`,
    folders: sql`(select json_group_array(json_object('id', f.id, 'name', f.name, 'slug', f.slug)) from folder_notes fn join folders f on f.id = fn.folder_id where fn.note_id = ${n}.id)`,
  };
}

/** The original of a renote or quote, one level deep, as a JSON object with a list row's field names (null when gone). */
function originalJson(viewer: Viewer) {
  const o = extras(sql.raw("o"), viewer ?? 0);
  return sql<string | null>`(select json_object(
    'id', o.id, 'kind', o.kind, 'userId', o.user_id, 'username', ou.username, 'fullname', ou.fullname,
    'avatar', ou.avatar, 'label', o.label, 'content', o.content, 'txt', o.txt, 'imgs', o.imgs, 'alts', o.alts, 'video', o.video,
    'renum', o.renum, 'repnum', o.repnum, 'likenum', o.likenum, 'createdAt', o.created_at, 'notedAt', o.noted_at,
    'updatedAt', o.updated_at, 'liked', ${o.liked}, 'renoted', ${o.renoted}, 'folders', json(${o.folders}))
    from notes o join users ou on ou.id = o.user_id where o.id = ${notes.renoteId} and ${originalVisible(sql.raw("o"), viewer, undefined, sql.raw("ou"))})`;
}

const NOTES = sql.raw('"notes"');

// Flat, so a plan names a raw row's values by position (worker/db/plan.ts).
const NOTE_COLUMNS = getTableColumns(notes);

/** What a note list selects: the note, its author, its original and the viewer's state, all in one row. */
export function hydrated(viewerId: Viewer) {
  const viewer = viewerId ?? 0;
  const e = extras(NOTES, viewer);
  return {
    ...NOTE_COLUMNS,
    username: users.username,
    fullname: users.fullname,
    avatar: users.avatar,
    // Named, so a batch (which reads rows by column name) never sees a bare "0" column.
    liked: sql<number>`${e.liked}`.as("x_liked"),
    renoted: sql<number>`${e.renoted}`.as("x_renoted"),
    folders: sql<string>`${e.folders}`.as("x_folders"),
    original: originalJson(viewerId).as("x_original"),
  };
}

/** A note with its author and the viewer's state: a list row, or its original parsed from JSON. */
type NoteFields = Omit<NoteRow, "renoteId" | "hiddenAt"> & {
  /** Set on a list or detail row (an original's JSON has none: a hidden original is not shown). */
  hiddenAt?: number | null;
  username: string;
  fullname: string;
  avatar: string;
  liked: number;
  renoted: number;
  /** JSON text in a row; already an array in a parsed original. */
  folders: string | NoteJson["folders"];
};

export type Hydrated = NoteFields & { original: string | null };

/** The stored alt texts (a JSON list); anything unreadable counts as none. */
function parseAlts(raw: string): string[] {
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** The spec's Note from one hydrated row; its original (one level) from the same row's JSON. */
export function toNoteJson(r: NoteFields & { original?: string | null }, viewerId: number | null): NoteJson {
  const viewer = viewerId ?? 0;
  const original: NoteFields | null = r.original ? JSON.parse(r.original) : null;
  return {
    id: r.id,
    kind: KIND[r.kind] ?? "note",
    user: { id: r.userId, username: r.username, fullname: r.fullname, avatar: r.avatar, me: r.userId === viewer },
    label: r.label,
    content: r.content,
    txt: r.txt,
    imgs: r.imgs,
    alts: parseAlts(r.alts),
    video: r.video,
    folders: typeof r.folders === "string" ? JSON.parse(r.folders) : r.folders,
    renote: original && toNoteJson(original, viewerId),
    renoted: !!r.renoted,
    renum: r.renum,
    repnum: r.repnum,
    likenum: r.likenum,
    liked: !!r.liked,
    created_at: r.createdAt,
    noted_at: r.notedAt,
    edited_at: r.updatedAt ?? null,
    // Only its owner and moderators ever receive a hidden note.
    ...(r.hiddenAt ? { hidden: true } : {}),
  };
}

/**
 * Where a list's order comes from when it is not the notes' own time index: a table of (time,
 * note id) rows with an index in that order (tags, bookmarks, folders). The page is read along
 * that index, so it never sorts more than it shows.
 */
export interface ListDriver {
  table: SQLiteTable;
  at: SQLiteColumn;
  id: SQLiteColumn;
  where: SQL | undefined;
}

/**
 * A note list's shape: where its rows come from, with `sql.placeholder`s for every value (never a
 * request's value itself: the statement is built once per shape and reused).
 */
export interface ListShape {
  name: string;
  where?: SQL;
  driver?: ListDriver;
  /** false for lists of one author the viewer chose to open (a profile, a folder): mutes keep them. */
  mute?: boolean;
}

const P = (name: string) => sql.placeholder(name);

export const LISTS = {
  discover: { name: "discover", where: sql`${notes.kind} != ${RENOTE}` },
  user: { name: "user", where: eq(notes.userId, P("uid")), mute: false },
  userLabel: { name: "userLabel", where: and(eq(notes.userId, P("uid")), eq(notes.label, P("label"))), mute: false },
  label: { name: "label", where: and(eq(notes.label, P("label")), sql`${notes.kind} != ${RENOTE}`) },
  /** A tag page reads along note_tags (tag, created_at, note_id). */
  tag: {
    name: "tag",
    driver: { table: noteTags, at: noteTags.createdAt, id: noteTags.noteId, where: eq(noteTags.tag, P("tag")) },
  },
} satisfies Record<string, ListShape>;

/** The statement of a list shape (with or without keyset, viewer and session check), built once. */
function listPlan(db: DB, shape: ListShape, keyset: boolean, viewer: boolean, ride: boolean) {
  return planOf(`list:${shape.name}|${+keyset}|${+viewer}|${+ride}`, () => {
    const { driver } = shape;
    const visible = noteInList(NOTES, viewer ? P("viewer") : null, { mute: shape.mute ?? true }, sql.raw('"users"'));
    const at = driver?.at ?? notes.createdAt;
    const id = driver?.id ?? notes.id;
    const select = {
      ...hydrated(viewer ? P("viewer") : null),
      sortAt: sql<number>`${at}`.as("x_sort_at"),
      ...(ride ? { session: sessionColumn(P("ride_uid"), P("ride_sid")) } : {}),
    };
    const from = driver
      ? db
          .select(select)
          .from(driver.table)
          .innerJoin(notes, eq(notes.id, id))
          .innerJoin(users, eq(users.id, notes.userId))
      : db.select(select).from(notes).innerJoin(users, eq(users.id, notes.userId));
    return from
      .where(
        and(driver?.where, shape.where, visible, keyset ? sql`(${at}, ${id}) < (${P("at")}, ${P("kid")})` : undefined),
      )
      .orderBy(desc(at), desc(id))
      .limit(P("limit"))
      .offset(P("offset"));
  });
}

/** One keyset page of a list, newest first, hydrated for the viewer, in one D1 round trip. */
export async function listNotes(
  db: DB,
  shape: ListShape,
  values: Record<string, unknown>,
  q: { page: number; cursor?: string },
  viewerId: number | null,
  ride?: RideAlong,
): Promise<NoteList> {
  const { after, offset } = startOf(q);
  const plan = listPlan(db, shape, !!after, !!viewerId, !!ride);
  const raw = await bindPlan(db, plan, {
    ...values,
    viewer: viewerId,
    at: after?.at,
    kid: after?.id,
    limit: PAGE_SIZE + 1,
    offset,
    ride_uid: ride?.uid,
    ride_sid: ride?.sid,
  }).raw<unknown[]>();
  const rows = named<Hydrated & { sortAt: number; session?: string | null }>(plan, raw);
  if (rows.length) ride?.settle(rows[0].session ?? null);
  const page = pageOf(rows, q.page, (r): Keyset => ({ at: r.sortAt, id: r.id }));
  return {
    notes: page.items.map((r) => toNoteJson(r, viewerId)),
    paginator: page.paginator,
    cursor: page.cursor,
  };
}

/** The query for one hydrated note, so a caller can batch it with its own (one round trip). */
export function noteQuery(db: DB, where: SQL | undefined, viewerId: Viewer) {
  return db
    .select(hydrated(viewerId))
    .from(notes)
    .innerJoin(users, eq(users.id, notes.userId))
    .where(and(where, openable(NOTES, viewerId)))
    .limit(1);
}

export function noteFromRows(rows: Hydrated[], viewerId: number | null): NoteJson {
  if (!rows[0]) throw notFound("Note not found");
  return toNoteJson(rows[0], viewerId);
}

export async function getNote(db: DB, id: number, viewerId: number | null, username?: string): Promise<NoteJson> {
  // Note detail is a hot read too: built once per variant, then only bound.
  const plan = planOf(`note|${+!!username}|${+!!viewerId}`, () =>
    noteQuery(
      db,
      and(eq(notes.id, P("id")), username ? sql`lower(${users.username}) = lower(${P("username")})` : undefined),
      viewerId ? P("viewer") : null,
    ),
  );
  const raw = await bindPlan(db, plan, { id, username, viewer: viewerId }).raw<unknown[]>();
  return noteFromRows(named<Hydrated>(plan, raw), viewerId);
}

// A note's counters (the author's note_num and x-label count, the original's renum) move by one,
// each statement guarded by the note row it is about as it stands inside the batch: before a
// delete ("out") or after an insert or edit ("in"). Batches run one at a time, so a repeated or
// racing write finds the row already gone (or there) and moves nothing: exact, and O(1).
const labelOf = (uid: number, noteId: number) =>
  sql`(select label from notes where id = ${noteId} and user_id = ${uid} and kind != ${RENOTE} and hidden_at is null)`;

/** The author's note_num and x-label count for note `noteId`, moving in (+1) or out (-1). */
export function countNote(db: DB, uid: number, noteId: number, by: 1 | -1): BatchItem<"sqlite">[] {
  // A note hidden by a moderator is already out of these counts (issue 16): it moves nothing.
  const mine = sql`exists(select 1 from notes where id = ${noteId} and user_id = ${uid} and kind != ${RENOTE} and hidden_at is null)`;
  const user = db
    .update(users)
    .set({ noteNum: plus(users.noteNum, by) })
    .where(and(eq(users.id, uid), mine));
  return by > 0 ? [user, ...labelIn(db, uid, noteId)] : [user, labelOut(db, uid, noteId)];
}

/** Before an edit or delete: the note's current x-label loses it. */
const labelOut = (db: DB, uid: number, noteId: number) =>
  db
    .update(userLabels)
    .set({ n: plus(userLabels.n, -1) })
    .where(and(eq(userLabels.userId, uid), sql`${userLabels.label} = ${labelOf(uid, noteId)}`));

/** After an insert or edit: the note's x-label gains it (its row made first), and empty ones go. */
const labelIn = (db: DB, uid: number, noteId: number): BatchItem<"sqlite">[] => [
  db
    .insert(userLabels)
    .select(
      db
        .select({ userId: notes.userId, label: notes.label, n: sql<number>`0`.as("n") })
        .from(notes)
        .where(
          and(
            eq(notes.id, noteId),
            eq(notes.userId, uid),
            sql`${notes.label} != ''`,
            sql`${notes.kind} != ${RENOTE}`,
            isNull(notes.hiddenAt),
          ),
        ),
    )
    .onConflictDoNothing(),
  db
    .update(userLabels)
    .set({ n: plus(userLabels.n, 1) })
    .where(and(eq(userLabels.userId, uid), sql`${userLabels.label} = ${labelOf(uid, noteId)}`)),
  db.delete(userLabels).where(and(eq(userLabels.userId, uid), eq(userLabels.n, 0))),
];

/** The original's renum, one down when the renote or quote `noteId` is about to be deleted. */
const renumOut = (db: DB, originalId: number, noteId: number) =>
  db
    .update(notes)
    .set({ renum: plus(notes.renum, -1) })
    .where(
      and(eq(notes.id, originalId), sql`exists(select 1 from notes r where r.id = ${noteId} and r.hidden_at is null)`),
    );

function tagStatements(db: DB, noteId: number, tags: string[], createdAt: number): BatchItem<"sqlite">[] {
  const out: BatchItem<"sqlite">[] = [db.delete(noteTags).where(eq(noteTags.noteId, noteId))];
  if (tags.length)
    out.push(
      db
        .insert(noteTags)
        .values(tags.map((tag) => ({ tag, noteId, createdAt })))
        .onConflictDoNothing(),
    );
  return out;
}

/** Image URLs a note may carry: only this user's own uploaded keys, served by this worker. */
const IMG_PREFIX = "/img/";
async function checkImages(env: Env, db: DB, uid: number, imgs: string[]) {
  if (!imgs.length) return;
  const keys = imgs.map((u) => (u.startsWith(IMG_PREFIX) ? u.slice(IMG_PREFIX.length) : ""));
  if (keys.some((k) => !k.startsWith(`u/${uid}/`)) || !(await ownedUploaded(env, db, uid, keys))) {
    throw new AppError(422, "invalid_input", "Images must be your own uploads.", {
      imgs: "Images must be your own uploads.",
    });
  }
}

export interface SaveResult {
  /** `href` is the note's own page, so a client needs no second call to find where it lives. */
  note: { id: number; href: string };
  uploads: { key: string; put_link: string; file_url: string }[];
}

/** Who saves a note: the signed-in user (their username makes the note's href). */
type Author = Pick<CurrentUser, "id" | "username">;

const saved = (author: Author, id: number, slots: UploadSlot[]): SaveResult => ({
  note: { id, href: `/${author.username}/note/${id}` },
  uploads: slots.map((s) => ({ key: s.key, put_link: s.put_link, file_url: s.file_url })),
});

async function reserveUploads(env: Env, db: DB, uid: number, data: NoteData, origin: string): Promise<UploadSlot[]> {
  return data.uploads.length ? createUploads(env, db, uid, "note", data.uploads, origin) : [];
}

export async function createNote(
  env: Env,
  db: DB,
  author: Author,
  data: NoteData,
  origin: string,
): Promise<SaveResult> {
  const uid = author.id;
  await checkImages(env, db, uid, data.imgs);
  const mentions = await linkMentions(db, uid, data.content);
  const slots = await reserveUploads(env, db, uid, data, origin);
  const now = Date.now();
  const imgs = [...data.imgs, ...slots.map((s) => s.file_url)].join(";");
  const [row] = await db
    .insert(notes)
    .values({
      userId: uid,
      kind: 0,
      label: data.label,
      content: mentions.html,
      txt: data.txt,
      imgs,
      alts: JSON.stringify(data.alts),
      video: data.video,
      createdAt: now,
      notedAt: now,
    })
    .returning({ id: notes.id });
  // The insert needs its id first (D1 has no interactive transaction); everything that depends
  // on it lands together, and a failure there removes the note again.
  try {
    const folderStmts = await folderSyncStatements(db, {
      userId: uid,
      noteId: row.id,
      label: data.label,
      oldLabel: null,
      createdAt: now,
      folderIds: data.folders,
    });
    await runBatch(db, [
      ...countNote(db, uid, row.id, 1),
      ...tagStatements(db, row.id, data.tags, now),
      ...folderStmts,
      ...noteCreatedStatements(db, { actorId: uid, noteId: row.id, extra: data.txt.slice(0, 100) }),
      ...mentionStatements(db, {
        actorId: uid,
        tblname: "note",
        rowid: row.id,
        userIds: mentions.userIds,
        extra: data.txt.slice(0, 100),
      }),
    ]);
  } catch (e) {
    // The batch failed whole, so no counter moved: only the note goes.
    await db.delete(notes).where(eq(notes.id, row.id));
    throw e;
  }
  return saved(author, row.id, slots);
}

export async function updateNote(
  env: Env,
  db: DB,
  author: Author,
  id: number,
  data: NoteData,
  origin: string,
): Promise<SaveResult> {
  const uid = author.id;
  // Ownership lives in the query: someone else's note is simply not found.
  const [old] = await db
    .select()
    .from(notes)
    .where(and(eq(notes.id, id), eq(notes.userId, uid), eq(notes.kind, 0)))
    .limit(1);
  if (!old) throw notFound("Note not found");
  await checkImages(env, db, uid, data.imgs);
  const mentions = await linkMentions(db, uid, data.content);
  const slots = await reserveUploads(env, db, uid, data, origin);
  const imgs = [...data.imgs, ...slots.map((s) => s.file_url)];
  const removed = old.imgs.split(";").filter((u) => u && !imgs.includes(u));
  const folderStmts = await folderSyncStatements(db, {
    userId: uid,
    noteId: id,
    label: data.label,
    oldLabel: old.label,
    createdAt: old.createdAt,
    folderIds: data.folders,
  });
  const changed = old.content !== data.content || old.label !== data.label;
  await runBatch(db, [
    labelOut(db, uid, id),
    // The text being replaced is kept, stamped with when it was written (edit history).
    ...(changed
      ? [
          db.insert(noteVersions).values({
            noteId: id,
            label: old.label,
            content: old.content,
            txt: old.txt,
            editedAt: old.updatedAt ?? old.createdAt,
          }),
        ]
      : []),
    db
      .update(notes)
      .set({
        label: data.label,
        content: mentions.html,
        txt: data.txt,
        imgs: imgs.join(";"),
        alts: JSON.stringify(data.alts),
        video: data.video,
        ...(changed ? { updatedAt: Date.now() } : {}),
      })
      .where(and(eq(notes.id, id), eq(notes.userId, uid))),
    ...labelIn(db, uid, id),
    ...tagStatements(db, id, data.tags, old.createdAt),
    ...folderStmts,
    // Someone newly named is told; those the note already named are not told again.
    ...mentionStatements(db, {
      actorId: uid,
      tblname: "note",
      rowid: id,
      userIds: mentions.userIds,
      extra: data.txt.slice(0, 100),
    }),
  ]);
  if (removed.length)
    await deleteImages(
      env,
      db,
      uid,
      removed.map((u) => u.slice(IMG_PREFIX.length)),
    );
  return saved(author, id, slots);
}

export async function deleteNote(env: Env, db: DB, uid: number, id: number): Promise<void> {
  const [old] = await db
    .select()
    .from(notes)
    .where(and(eq(notes.id, id), eq(notes.userId, uid)))
    .limit(1);
  if (!old) throw notFound("Note not found");
  const unfile = await folderUnfileStatements(db, id);
  await runBatch(db, [
    ...unfile,
    ...noteDeletedStatements(db, id),
    ...countNote(db, uid, id, -1),
    ...(old.renoteId ? [renumOut(db, old.renoteId, id)] : []),
    // Its replies go with it (a foreign-key cascade), so the notifications about them go first.
    ...repliesDeletedStatements(db, sql`select id from replies where note_id = ${id}`),
    db.delete(likes).where(and(eq(likes.kind, "note"), eq(likes.targetId, id))),
    db.delete(notes).where(and(eq(notes.renoteId, id), eq(notes.kind, RENOTE))),
    db.delete(notes).where(and(eq(notes.id, id), eq(notes.userId, uid))),
    db.delete(userLabels).where(and(eq(userLabels.userId, uid), eq(userLabels.n, 0))),
  ]);
  const keys = old.imgs
    .split(";")
    .filter((u) => u.startsWith(IMG_PREFIX))
    .map((u) => u.slice(IMG_PREFIX.length));
  if (keys.length) await deleteImages(env, db, uid, keys);
}

/** Renote (empty content) or quote (text) of a note; a renote of a renote renotes the original. */
export async function renote(db: DB, uid: number, targetId: number, content: string, txt: string) {
  const [target] = await db
    .select({ id: notes.id, kind: notes.kind, renoteId: notes.renoteId })
    .from(notes)
    .where(and(eq(notes.id, targetId), openable(NOTES, uid, { blocks: false })))
    .limit(1);
  if (!target) throw notFound("Note not found");
  const originalId = target.kind === RENOTE && target.renoteId ? target.renoteId : target.id;
  const [original] = await db
    .select({ ownerId: notes.userId, blocked: blockState(uid, notes.userId) })
    .from(notes)
    .where(and(eq(notes.id, originalId), openable(NOTES, uid, { blocks: false })))
    .limit(1);
  if (!original) throw notFound("Note not found");
  refuseBlocked(original.blocked);
  const now = Date.now();
  if (!txt.trim()) {
    const [, [counted]] = (await runBatch(db, [
      db
        .insert(notes)
        .values({ userId: uid, kind: RENOTE, renoteId: originalId, createdAt: now, notedAt: now })
        .onConflictDoNothing(),
      db
        .update(notes)
        .set({ renum: plusChanges(notes.renum) })
        .where(eq(notes.id, originalId))
        .returning({ renum: notes.renum }),
      ...notifyStatements(db, {
        userId: original.ownerId,
        actorId: uid,
        action: "renote",
        tblname: "note",
        rowid: originalId,
      }),
    ])) as [unknown, { renum: number }[]];
    return { id: originalId, renoted: true, renum: counted?.renum ?? 0 };
  }
  const mentions = await linkMentions(db, uid, content);
  const [row] = await db
    .insert(notes)
    .values({
      userId: uid,
      kind: QUOTE,
      renoteId: originalId,
      content: mentions.html,
      txt,
      createdAt: now,
      notedAt: now,
    })
    .returning({ id: notes.id });
  await runBatch(db, [
    db
      .update(notes)
      .set({ renum: plus(notes.renum, 1) })
      .where(and(eq(notes.id, originalId), sql`exists(select 1 from notes r where r.id = ${row.id})`)),
    ...countNote(db, uid, row.id, 1),
    ...notifyStatements(db, {
      userId: original.ownerId,
      actorId: uid,
      action: "quote",
      tblname: "note",
      rowid: row.id,
      extra: txt.slice(0, 100),
    }),
    ...mentionStatements(db, { actorId: uid, tblname: "note", rowid: row.id, userIds: mentions.userIds, extra: txt }),
  ]);
  return {
    id: row.id,
    renoted: false,
    renum: (await db.select({ n: notes.renum }).from(notes).where(eq(notes.id, originalId)))[0]?.n ?? 0,
  };
}

export async function undoRenote(db: DB, uid: number, originalId: number) {
  const [original] = await db.select({ ownerId: notes.userId }).from(notes).where(eq(notes.id, originalId)).limit(1);
  const [, [counted]] = (await runBatch(db, [
    db.delete(notes).where(and(eq(notes.userId, uid), eq(notes.kind, RENOTE), eq(notes.renoteId, originalId))),
    db
      .update(notes)
      .set({ renum: minusChanges(notes.renum) })
      .where(eq(notes.id, originalId))
      .returning({ renum: notes.renum }),
    ...(original
      ? unnotifyStatements(db, {
          userId: original.ownerId,
          actorId: uid,
          action: "renote",
          tblname: "note",
          rowid: originalId,
        })
      : []),
  ])) as [unknown, { renum: number }[]];
  if (!counted) throw notFound("Note not found");
  return { id: originalId, renoted: false, renum: counted.renum };
}

export interface NoteVersion {
  label: string;
  content: string;
  txt: string;
  /** When this version was written: the note's creation for the first, each edit for the rest. */
  edited_at: number;
  current: boolean;
}

/**
 * The versions of a note, newest (the current text) first, to whoever may open the note: one
 * batch, the note's own visibility rule in its where.
 */
export async function noteHistory(db: DB, id: number, viewerId: number | null) {
  const [[note], older] = await db.batch([
    db
      .select({
        label: notes.label,
        content: notes.content,
        txt: notes.txt,
        createdAt: notes.createdAt,
        updatedAt: notes.updatedAt,
        username: users.username,
      })
      .from(notes)
      .innerJoin(users, eq(users.id, notes.userId))
      .where(and(eq(notes.id, id), sql`${notes.kind} != ${RENOTE}`, openable(NOTES, viewerId)))
      .limit(1),
    db
      .select({
        label: noteVersions.label,
        content: noteVersions.content,
        txt: noteVersions.txt,
        at: noteVersions.editedAt,
      })
      .from(noteVersions)
      .where(eq(noteVersions.noteId, id))
      .orderBy(desc(noteVersions.editedAt), desc(noteVersions.id))
      .limit(MAX_VERSIONS),
  ]);
  if (!note) throw notFound("Note not found");
  const versions: NoteVersion[] = [
    {
      label: note.label,
      content: note.content,
      txt: note.txt,
      edited_at: note.updatedAt ?? note.createdAt,
      current: true,
    },
    ...older.map((v) => ({ label: v.label, content: v.content, txt: v.txt, edited_at: v.at, current: false })),
  ];
  return { id, username: note.username, edited_at: note.updatedAt ?? null, versions };
}

/** A history shows the latest edits; a note edited more often than this keeps its oldest rows unlisted. */
const MAX_VERSIONS = 100;
