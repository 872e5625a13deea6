// Renotes (a note shared as it is) and quotes (shared with your own text), and undoing a renote.
import { and, eq, type SQL, sql } from "drizzle-orm";
import { drizzleRead, type Rows, readOne } from "../../db/reads";
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
import { insertNote, madeNote, type PreparedWrite } from "./notes.insert";
import { newId } from "../../lib/ids";
import { NOTES } from "./notes.json";

/** `uid`'s plain renote of `originalId`, as SQL (at most one: notes_one_renote_uq). */
export const renoteOf = (uid: number, originalId: number | SQL) =>
  sql<number>`(select r.id from notes r where r.user_id = ${uid} and r.kind = ${RENOTE} and r.renote_id = ${originalId})`;

/** Whether `uid` has a plain renote of `originalId` (a moderator hides the original, never a plain renote). */
const renoted = (uid: number, originalId: number | SQL) => sql`exists${renoteOf(uid, originalId)}`;

/**
 * The original's renote count, moved by one in a statement whose own `where` holds exactly when the
 * renote's insert (or delete) after it changes a counted row: O(1), and a repeat moves nothing.
 * `when`: the renote's own guard.
 */
const renumFor = (db: DB, uid: number, originalId: number | SQL, on: boolean, when?: SQL) =>
  db
    .update(notes)
    .set({ renum: plus(notes.renum, on ? 1 : -1) })
    .where(and(eq(notes.id, originalId), on ? sql`not ${renoted(uid, originalId)}` : renoted(uid, originalId), when));

/** The original's renum as the batch left it. */
const renumOf = (db: DB, originalId: number | SQL) =>
  db.select({ renum: notes.renum }).from(notes).where(eq(notes.id, originalId));

/** The notice of `uid`'s plain renote of `originalId`, to its owner. */
const renoteNotice = (ownerId: number | SQL, uid: number, originalId: number | SQL, when?: SQL) => ({
  userId: ownerId,
  actorId: uid,
  action: "renote" as const,
  tblname: "note",
  targetId: originalId,
  when,
});

/**
 * The note a renote of `targetId` shares, as SQL: the target, or the original a plain renote of it
 * shows, while `uid` may open the target.
 */
const originalOf = (uid: number, targetId: number) =>
  sql<number>`(select case when t.kind = ${RENOTE} and t.renote_id is not null then t.renote_id else t.id end from notes t where t.id = ${targetId} and ${openable(sql`t`, uid, { blocks: false })})`;

/**
 * What a renote is decided from, the first statement of its batch: the original as `uid` may open
 * it, its owner, and the block state.
 */
const originalFacts = (db: DB, uid: number, original: SQL) =>
  db
    .select({ id: notes.id, ownerId: notes.userId, blocked: blockState(uid, notes.userId).as("blocked") })
    .from(notes)
    .where(and(eq(notes.id, original), openable(NOTES, uid, { blocks: false })))
    .limit(1);

/** The guard of every write of a renote's batch: originalFacts finds the original, and no block stands between them. */
const originalAllows = (db: DB, uid: number, original: SQL) =>
  sql`exists(select 1 from (${originalFacts(db, uid, original)}) f where f.blocked = 0)`;

export type Shared = { id: number; renoted: boolean; renum: number };

/**
 * Renote (empty content) or quote (text) of a note, built for one batch: its first statement reads
 * the facts (a renote of a renote renotes the original; its owner; the block state), every write
 * after it carries the same condition, and the answer (404, 403) is decided from the facts read.
 * A refused renote changed nothing. `id` names the original (a renote) or the new quote.
 */
export async function prepareRenote(
  db: DB,
  uid: number,
  targetId: number,
  content: string,
  txt: string,
): Promise<PreparedWrite<Shared>> {
  const original = originalOf(uid, targetId);
  const ok = originalAllows(db, uid, original);
  const owner = sql<number>`(select user_id from notes where id = ${original})`;
  const now = Date.now();
  if (!txt.trim()) {
    const statements = {
      facts: originalFacts(db, uid, original),
      counted: renumFor(db, uid, original, true, ok),
      made: insertNote(
        db,
        { id: newId("note", now), userId: uid, kind: RENOTE, renoteId: original, createdAt: now, notedAt: now },
        ok,
      ).onConflictDoNothing(),
      renum: renumOf(db, original),
      told: notifyStatements(db, renoteNotice(owner, uid, original, ok)),
    };
    const answer = (rows: { facts: Rows; renum: Rows }): Shared => {
      const [facts] = rows.facts as Facts[];
      const [counted] = rows.renum as { renum: number }[];
      refuse(facts);
      return { id: facts.id, renoted: true, renum: counted?.renum ?? 0 };
    };
    return { ...drizzleRead(db, statements, answer), id: original };
  }
  const mentions = await linkMentions(db, uid, content);
  const madeId = newId("note", now);
  const id = madeNote(madeId);
  const statements = {
    facts: originalFacts(db, uid, original),
    made: insertNote(
      db,
      {
        id: madeId,
        userId: uid,
        kind: QUOTE,
        renoteId: original,
        content: mentions.html,
        txt,
        createdAt: now,
        notedAt: now,
      },
      ok,
    ).returning({ id: notes.id }),
    renum: db
      .update(notes)
      .set({ renum: plus(notes.renum, 1) })
      .where(and(eq(notes.id, original), sql`exists(select 1 from notes r where r.id = ${id})`))
      .returning({ renum: notes.renum }),
    counted: countNote(db, uid, id, 1),
    told: notifyStatements(db, {
      userId: owner,
      actorId: uid,
      action: "quote",
      tblname: "note",
      targetId: id,
      extra: txt.slice(0, 100),
      when: ok,
    }),
    mentioned: mentionStatements(db, {
      actorId: uid,
      tblname: "note",
      targetId: id,
      userIds: mentions.userIds,
      extra: txt,
      when: ok,
      answered: owner,
    }),
  };
  const answer = (rows: { facts: Rows; made: Rows; renum: Rows }): Shared => {
    const [facts] = rows.facts as Facts[];
    const [row] = rows.made as { id: number }[];
    const [counted] = rows.renum as { renum: number }[];
    refuse(facts);
    // The count comes back from the batch's own update, not from a read after it.
    return { id: row.id, renoted: false, renum: counted?.renum ?? 0 };
  };
  return { ...drizzleRead(db, statements, answer), id };
}

/** Renote or quote: prepareRenote's statements, sent as one batch. */
export async function renote(db: DB, uid: number, targetId: number, content: string, txt: string) {
  const write = await prepareRenote(db, uid, targetId, content, txt);
  return await readOne(db, write);
}

type Facts = { id: number; ownerId: number; blocked: number };

/** The answer the facts give: a 404 when the original is not there for the viewer, a 403 across a block. */
function refuse(facts: Facts | undefined): asserts facts is Facts {
  if (!facts) throw notFound("Note not found");
  refuseBlocked(facts.blocked);
}

/**
 * Undoing `uid`'s plain renote of `originalId`, built for one batch (the notice names the owner by
 * a subquery); a caller may add reads after it.
 */
export function prepareUndoRenote(db: DB, uid: number, originalId: number) {
  const owner = sql<number>`(select user_id from notes where id = ${originalId})`;
  const statements = {
    counted: renumFor(db, uid, originalId, false),
    deleted: db.delete(notes).where(and(eq(notes.userId, uid), eq(notes.kind, RENOTE), eq(notes.renoteId, originalId))),
    renum: renumOf(db, originalId),
    untold: unnotifyStatements(db, renoteNotice(owner, uid, originalId)),
  };
  const answer = (rows: { renum: Rows }) => {
    const [counted] = rows.renum as { renum: number }[];
    if (!counted) throw notFound("Note not found");
    return { id: originalId, renoted: false, renum: counted.renum };
  };
  return drizzleRead(db, statements, answer);
}

/** Undoes `uid`'s plain renote of `originalId`, in one round trip. */
export async function undoRenote(db: DB, uid: number, originalId: number) {
  const write = prepareUndoRenote(db, uid, originalId);
  return await readOne(db, write);
}
