import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { BatchItem } from "drizzle-orm/batch";
import { noteTags, notes } from "../../db/schema/notes";
import { likes } from "../../db/schema/social";
import { userLabels, users } from "../../db/schema/users";
import { runBatch } from "../../db/client";
import type { DB, Env } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { type Keyset, PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import { folderSyncStatements, folderUnfileStatements, foldersOfNotes } from "../folders/folders.links";
import {
  noteCreatedStatements,
  noteDeletedStatements,
  notifyStatements,
  unnotifyStatements,
} from "../notifications/notifications.links";
import { createUploads, deleteImages, ownedUploaded, type UploadSlot } from "../uploads/uploads.links";
import type { NoteData } from "./notes.schema";
import type { NoteJson, NoteList } from "./notes.types";

type NoteRow = typeof notes.$inferSelect;
type Row = NoteRow & { username: string; fullname: string; avatar: string };

const KIND = ["note", "renote", "quote"] as const;
export const RENOTE = 1;
export const QUOTE = 2;

const AUTHORED = { note: notes, username: users.username, fullname: users.fullname, avatar: users.avatar };
const withAuthor = (db: DB) => db.select(AUTHORED).from(notes).innerJoin(users, eq(users.id, notes.userId));

const flat = (r: { note: NoteRow; username: string; fullname: string; avatar: string }): Row => ({
  ...r.note,
  username: r.username,
  fullname: r.fullname,
  avatar: r.avatar,
});

/** Turns note rows into the spec's Note: author, original (one level), folders and viewer state, in one batch. */
export async function hydrate(db: DB, rows: Row[], viewerId: number | null): Promise<NoteJson[]> {
  if (!rows.length) return [];
  const originalIds = [...new Set(rows.map((r) => r.renoteId).filter((id): id is number => !!id))];
  const originals = originalIds.length ? (await withAuthor(db).where(inArray(notes.id, originalIds))).map(flat) : [];
  const allIds = [...new Set([...rows.map((r) => r.id), ...originals.map((r) => r.id)])];
  const viewer = viewerId ?? 0;
  const [liked, renoted] = viewer
    ? await db.batch([
        db
          .select({ id: likes.targetId })
          .from(likes)
          .where(and(eq(likes.userId, viewer), eq(likes.kind, "note"), inArray(likes.targetId, allIds))),
        db
          .select({ id: notes.renoteId })
          .from(notes)
          .where(and(eq(notes.userId, viewer), eq(notes.kind, RENOTE), inArray(notes.renoteId, allIds))),
      ])
    : [[], []];
  const folders = await foldersOfNotes(db, allIds);
  const likedSet = new Set(liked.map((r) => r.id));
  const renotedSet = new Set(renoted.map((r) => r.id));
  const toJson = (r: Row, renote: NoteJson | null): NoteJson => ({
    id: r.id,
    kind: KIND[r.kind] ?? "note",
    user: { id: r.userId, username: r.username, fullname: r.fullname, avatar: r.avatar, me: r.userId === viewer },
    label: r.label,
    content: r.content,
    txt: r.txt,
    imgs: r.imgs,
    video: r.video,
    folders: folders.get(r.id) ?? [],
    renote,
    renoted: renotedSet.has(r.id),
    renum: r.renum,
    repnum: r.repnum,
    likenum: r.likenum,
    liked: likedSet.has(r.id),
    created_at: r.createdAt,
    noted_at: r.notedAt,
  });
  const byId = new Map(originals.map((o) => [o.id, toJson(o, null)]));
  return rows.map((r) => toJson(r, r.renoteId ? (byId.get(r.renoteId) ?? null) : null));
}

/**
 * Where a list's order comes from when it is not the notes' own time index: a table of (time,
 * note id) rows with an index in that order (tags, bookmarks). The page is read along that index,
 * so it never sorts more than it shows.
 */
export interface ListDriver {
  table: SQLiteTable;
  at: SQLiteColumn;
  id: SQLiteColumn;
  where: SQL | undefined;
}

/** One keyset page of notes matching `where`, newest first, hydrated for the viewer. */
export async function listNotes(
  db: DB,
  where: SQL | undefined,
  q: { page: number; cursor?: string },
  viewerId: number | null,
  driver?: ListDriver,
): Promise<NoteList> {
  const { after, offset } = startOf(q);
  const at = driver?.at ?? notes.createdAt;
  const id = driver?.id ?? notes.id;
  const keyset = after ? sql`(${at}, ${id}) < (${after.at}, ${after.id})` : undefined;
  const base = driver
    ? db
        .select({ ...AUTHORED, sortAt: sql<number>`${at}` })
        .from(driver.table)
        .innerJoin(notes, eq(notes.id, id))
        .innerJoin(users, eq(users.id, notes.userId))
    : db
        .select({ ...AUTHORED, sortAt: notes.createdAt })
        .from(notes)
        .innerJoin(users, eq(users.id, notes.userId));
  const rows = (
    await base
      .where(and(driver?.where, where, keyset))
      .orderBy(desc(at), desc(id))
      .limit(PAGE_SIZE + 1)
      .offset(offset)
  ).map((r) => ({ ...flat(r), sortAt: r.sortAt }));
  const page = pageOf(rows, q.page, (r): Keyset => ({ at: r.sortAt, id: r.id }));
  return { notes: await hydrate(db, page.items, viewerId), paginator: page.paginator, cursor: page.cursor };
}

export const discoverWhere = () => sql`${notes.kind} != ${RENOTE}`;
// Walks the notes' time index and keeps the followed authors' rows (a follows primary-key lookup
// each), so a page costs about PAGE_SIZE × users / followed rows, never a sort of every followed
// note. (A fan-out timeline table would bound it for people who follow few, quiet accounts.)
export const feedWhere = (uid: number) =>
  sql`(${notes.userId} = ${uid} or exists (select 1 from follows f where f.follower_id = ${uid} and f.followee_id = ${notes.userId}))`;
export const userWhere = (uid: number, label?: string) =>
  and(eq(notes.userId, uid), label ? eq(notes.label, label) : undefined);
export const labelWhere = (label: string) => and(eq(notes.label, label), sql`${notes.kind} != ${RENOTE}`);
/** A tag page reads along note_tags (tag, created_at, note_id). */
export const tagDriver = (tag: string): ListDriver => ({
  table: noteTags,
  at: noteTags.createdAt,
  id: noteTags.noteId,
  where: eq(noteTags.tag, tag),
});

export async function getNote(db: DB, id: number, viewerId: number | null, username?: string): Promise<NoteJson> {
  const [row] = (
    await withAuthor(db)
      .where(and(eq(notes.id, id), username ? sql`lower(${users.username}) = lower(${username})` : undefined))
      .limit(1)
  ).map(flat);
  if (!row) throw notFound("Note not found");
  const [json] = await hydrate(db, [row], viewerId);
  return json;
}

// Counters are recounted from their rows inside the write's batch: a repeated or racing write can
// never make them drift, and the recount reads only the user's own index range.
export const recountUser = (db: DB, uid: number) =>
  db
    .update(users)
    .set({ noteNum: sql`(select count(*) from notes where user_id = ${uid} and kind != ${RENOTE})` })
    .where(eq(users.id, uid));

export function recountLabel(db: DB, uid: number, label: string): BatchItem<"sqlite">[] {
  if (!label) return [];
  return [
    db.insert(userLabels).values({ userId: uid, label, n: 0 }).onConflictDoNothing(),
    db
      .update(userLabels)
      .set({ n: sql`(select count(*) from notes where user_id = ${uid} and label = ${label} and kind != ${RENOTE})` })
      .where(and(eq(userLabels.userId, uid), eq(userLabels.label, label))),
    db.delete(userLabels).where(and(eq(userLabels.userId, uid), eq(userLabels.label, label), eq(userLabels.n, 0))),
  ];
}

export const recountRenum = (db: DB, noteId: number) =>
  db
    .update(notes)
    .set({ renum: sql`(select count(*) from notes as r where r.renote_id = ${noteId})` })
    .where(eq(notes.id, noteId));

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
async function checkImages(db: DB, uid: number, imgs: string[]) {
  if (!imgs.length) return;
  const keys = imgs.map((u) => (u.startsWith(IMG_PREFIX) ? u.slice(IMG_PREFIX.length) : ""));
  if (keys.some((k) => !k.startsWith(`u/${uid}/`)) || !(await ownedUploaded(db, uid, keys))) {
    throw new AppError(422, "invalid_input", "Images must be your own uploads.", {
      imgs: "Images must be your own uploads.",
    });
  }
}

export interface SaveResult {
  note: { id: number };
  uploads: { key: string; put_link: string; file_url: string }[];
}

async function reserveUploads(env: Env, db: DB, uid: number, data: NoteData, origin: string): Promise<UploadSlot[]> {
  return data.uploads.length ? createUploads(env, db, uid, "note", data.uploads, origin) : [];
}

export async function createNote(env: Env, db: DB, uid: number, data: NoteData, origin: string): Promise<SaveResult> {
  await checkImages(db, uid, data.imgs);
  const slots = await reserveUploads(env, db, uid, data, origin);
  const now = Date.now();
  const imgs = [...data.imgs, ...slots.map((s) => s.file_url)].join(";");
  const [row] = await db
    .insert(notes)
    .values({
      userId: uid,
      kind: 0,
      label: data.label,
      content: data.content,
      txt: data.txt,
      imgs,
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
    await db.batch([
      recountUser(db, uid),
      ...recountLabel(db, uid, data.label),
      ...tagStatements(db, row.id, data.tags, now),
      ...folderStmts,
      ...noteCreatedStatements(db, { actorId: uid, noteId: row.id, extra: data.txt.slice(0, 100) }),
    ]);
  } catch (e) {
    await db.batch([
      db.delete(notes).where(eq(notes.id, row.id)),
      recountUser(db, uid),
      ...recountLabel(db, uid, data.label),
    ]);
    throw e;
  }
  return {
    note: { id: row.id },
    uploads: slots.map((s) => ({ key: s.key, put_link: s.put_link, file_url: s.file_url })),
  };
}

export async function updateNote(
  env: Env,
  db: DB,
  uid: number,
  id: number,
  data: NoteData,
  origin: string,
): Promise<SaveResult> {
  // Ownership lives in the query: someone else's note is simply not found.
  const [old] = await db
    .select()
    .from(notes)
    .where(and(eq(notes.id, id), eq(notes.userId, uid), eq(notes.kind, 0)))
    .limit(1);
  if (!old) throw notFound("Note not found");
  await checkImages(db, uid, data.imgs);
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
  await db.batch([
    db
      .update(notes)
      .set({
        label: data.label,
        content: data.content,
        txt: data.txt,
        imgs: imgs.join(";"),
        video: data.video,
        updatedAt: Date.now(),
      })
      .where(and(eq(notes.id, id), eq(notes.userId, uid))),
    ...recountLabel(db, uid, old.label),
    ...(old.label !== data.label ? recountLabel(db, uid, data.label) : []),
    ...tagStatements(db, id, data.tags, old.createdAt),
    ...folderStmts,
  ]);
  if (removed.length)
    await deleteImages(
      env,
      db,
      uid,
      removed.map((u) => u.slice(IMG_PREFIX.length)),
    );
  return { note: { id }, uploads: slots.map((s) => ({ key: s.key, put_link: s.put_link, file_url: s.file_url })) };
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
    db.delete(likes).where(and(eq(likes.kind, "note"), eq(likes.targetId, id))),
    db.delete(notes).where(and(eq(notes.renoteId, id), eq(notes.kind, RENOTE))),
    db.delete(notes).where(and(eq(notes.id, id), eq(notes.userId, uid))),
    recountUser(db, uid),
    ...recountLabel(db, uid, old.label),
    ...(old.renoteId ? [recountRenum(db, old.renoteId)] : []),
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
    .where(eq(notes.id, targetId))
    .limit(1);
  if (!target) throw notFound("Note not found");
  const originalId = target.kind === RENOTE && target.renoteId ? target.renoteId : target.id;
  const [original] = await db.select({ ownerId: notes.userId }).from(notes).where(eq(notes.id, originalId)).limit(1);
  if (!original) throw notFound("Note not found");
  const now = Date.now();
  if (!txt.trim()) {
    const [, [counted]] = (await runBatch(db, [
      db
        .insert(notes)
        .values({ userId: uid, kind: RENOTE, renoteId: originalId, createdAt: now, notedAt: now })
        .onConflictDoNothing(),
      db
        .update(notes)
        .set({ renum: sql`(select count(*) from notes as r where r.renote_id = ${originalId})` })
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
  const [row] = await db
    .insert(notes)
    .values({ userId: uid, kind: QUOTE, renoteId: originalId, content, txt, createdAt: now, notedAt: now })
    .returning({ id: notes.id });
  await runBatch(db, [
    recountRenum(db, originalId),
    recountUser(db, uid),
    ...notifyStatements(db, {
      userId: original.ownerId,
      actorId: uid,
      action: "quote",
      tblname: "note",
      rowid: row.id,
      extra: txt.slice(0, 100),
    }),
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
      .set({ renum: sql`(select count(*) from notes as r where r.renote_id = ${originalId})` })
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
