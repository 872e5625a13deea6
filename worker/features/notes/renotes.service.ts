// Renotes (a note shared as it is) and quotes (shared with your own text), and undoing a renote.
import { and, eq, type SQL, sql } from "drizzle-orm";
import { runBatch } from "../../db/client";
import { plus } from "../../db/counters";
import { notes } from "../../db/schema/notes";
import type { DB } from "../../env";
import { notFound } from "../../lib/errors";
import { linkMentions } from "../mentions/mentions.service";
import { mentionStatements, notifyStatements, unnotifyStatements } from "../notifications/notifications.links";
import { refuseBlocked } from "../safety/safety.service";
import { blockState, openable } from "../safety/visibility";
import { QUOTE, RENOTE } from "./notes.constants";
import { countNote } from "./notes.counters";
import { NOTES } from "./notes.json";

/** Whether `uid` has a plain renote of `originalId` (a moderator hides the original, never a plain renote). */
const renoted = (uid: number, originalId: number) =>
  sql`exists(select 1 from notes r where r.user_id = ${uid} and r.kind = ${RENOTE} and r.renote_id = ${originalId})`;

/**
 * The original's renote count, moved by one in a statement whose own `where` holds exactly when the
 * renote's insert (or delete) after it changes a counted row: O(1), and a repeat moves nothing.
 */
const renumFor = (db: DB, uid: number, originalId: number, on: boolean) =>
  db
    .update(notes)
    .set({ renum: plus(notes.renum, on ? 1 : -1) })
    .where(and(eq(notes.id, originalId), on ? sql`not ${renoted(uid, originalId)}` : renoted(uid, originalId)));

/** The original's renum as the batch left it. */
const renumOf = (db: DB, originalId: number) =>
  db.select({ renum: notes.renum }).from(notes).where(eq(notes.id, originalId));

/** The notice of `uid`'s plain renote of `originalId`, to its owner. */
const renoteNotice = (ownerId: number | SQL, uid: number, originalId: number) => ({
  userId: ownerId,
  actorId: uid,
  action: "renote" as const,
  tblname: "note",
  rowid: originalId,
});

/**
 * The note a renote of `targetId` shares, as SQL: the target, or the original a plain renote of it
 * shows, while `uid` may open the target.
 */
const originalOf = (uid: number, targetId: number) =>
  sql<number>`(select case when t.kind = ${RENOTE} and t.renote_id is not null then t.renote_id else t.id end from notes t where t.id = ${targetId} and ${openable(sql`t`, uid, { blocks: false })})`;

/** What a renote is decided from: the original as `uid` may open it, its owner, and the block state. */
const originalFacts = (db: DB, uid: number, original: SQL) =>
  db
    .select({ id: notes.id, ownerId: notes.userId, blocked: blockState(uid, notes.userId) })
    .from(notes)
    .where(and(eq(notes.id, original), openable(NOTES, uid, { blocks: false })))
    .limit(1);

/**
 * Renote (empty content) or quote (text) of a note. One read resolves the original (a renote of a
 * renote renotes the original), its owner and the block state; then the write's own batch.
 */
export async function renote(db: DB, uid: number, targetId: number, content: string, txt: string) {
  const [facts] = await originalFacts(db, uid, originalOf(uid, targetId));
  if (!facts) throw notFound("Note not found");
  refuseBlocked(facts.blocked);
  const originalId = facts.id;
  const now = Date.now();
  if (!txt.trim()) {
    const [, , [counted]] = (await runBatch(db, [
      renumFor(db, uid, originalId, true),
      db
        .insert(notes)
        .values({ userId: uid, kind: RENOTE, renoteId: originalId, createdAt: now, notedAt: now })
        .onConflictDoNothing(),
      renumOf(db, originalId),
      ...notifyStatements(db, renoteNotice(facts.ownerId, uid, originalId)),
    ])) as [unknown, unknown, { renum: number }[]];
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
  // As a new note's: the quote needs its id first, and a failure after that removes it again.
  let counted: { renum: number } | undefined;
  try {
    [[counted]] = (await runBatch(db, [
      db
        .update(notes)
        .set({ renum: plus(notes.renum, 1) })
        .where(and(eq(notes.id, originalId), sql`exists(select 1 from notes r where r.id = ${row.id})`))
        .returning({ renum: notes.renum }),
      ...countNote(db, uid, row.id, 1),
      ...notifyStatements(db, {
        userId: facts.ownerId,
        actorId: uid,
        action: "quote",
        tblname: "note",
        rowid: row.id,
        extra: txt.slice(0, 100),
      }),
      ...mentionStatements(db, { actorId: uid, tblname: "note", rowid: row.id, userIds: mentions.userIds, extra: txt }),
    ])) as [{ renum: number }[]];
  } catch (e) {
    // The batch failed whole, so no counter moved: only the quote goes.
    await db.delete(notes).where(eq(notes.id, row.id));
    throw e;
  }
  // The count comes back from the batch's own update, not from a read after it.
  return { id: row.id, renoted: false, renum: counted?.renum ?? 0 };
}

/** Undoes `uid`'s plain renote of `originalId`, in one round trip (the notice names the owner by a subquery). */
export async function undoRenote(db: DB, uid: number, originalId: number) {
  const owner = sql<number>`(select user_id from notes where id = ${originalId})`;
  const [, , [counted]] = (await runBatch(db, [
    renumFor(db, uid, originalId, false),
    db.delete(notes).where(and(eq(notes.userId, uid), eq(notes.kind, RENOTE), eq(notes.renoteId, originalId))),
    renumOf(db, originalId),
    ...unnotifyStatements(db, renoteNotice(owner, uid, originalId)),
  ])) as [unknown, unknown, { renum: number }[]];
  if (!counted) throw notFound("Note not found");
  return { id: originalId, renoted: false, renum: counted.renum };
}
