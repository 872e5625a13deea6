import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { Statement } from "../../db/plan";
import { plus } from "../../db/counters";
import { notes } from "../../db/schema/notes";
import { userLabels, users } from "../../db/schema/users";
import type { DB } from "../../env";
import { RENOTE } from "./notes.constants";

// A note's counters (the author's note_num and x-label count, the original's renum) move by one,
// each statement guarded by the note row it is about as it stands inside the batch: before a
// delete ("out") or after an insert or edit ("in"). Batches run one at a time, so a repeated or
// racing write finds the row already gone (or there) and moves nothing: exact, and O(1).
const labelOf = (uid: number, noteId: number | SQL) =>
  sql`(select label from notes where id = ${noteId} and user_id = ${uid} and kind != ${RENOTE} and hidden_at is null)`;

/** The author's note_num and x-label count for note `noteId`, moving in (+1) or out (-1). */
export function countNote(db: DB, uid: number, noteId: number | SQL, by: 1 | -1): Statement[] {
  // A note hidden by a moderator is already out of these counts (issue 16): it moves nothing.
  const mine = sql`exists(select 1 from notes where id = ${noteId} and user_id = ${uid} and kind != ${RENOTE} and hidden_at is null)`;
  const user = db
    .update(users)
    .set({ noteNum: plus(users.noteNum, by) })
    .where(and(eq(users.id, uid), mine));
  return by > 0 ? [user, ...labelIn(db, uid, noteId)] : [user, labelOut(db, uid, noteId)];
}

/** Before an edit or delete: the note's current x-label loses it. */
export const labelOut = (db: DB, uid: number, noteId: number | SQL, when?: SQL) =>
  db
    .update(userLabels)
    .set({ n: plus(userLabels.n, -1) })
    .where(and(eq(userLabels.userId, uid), sql`${userLabels.label} = ${labelOf(uid, noteId)}`, when));

/**
 * After an insert or edit: the note's x-label gains it (its row made first), and empty ones go.
 * `when`: the edit's own guard.
 */
export const labelIn = (db: DB, uid: number, noteId: number | SQL, when?: SQL): Statement[] => [
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
            when,
          ),
        ),
    )
    .onConflictDoNothing(),
  db
    .update(userLabels)
    .set({ n: plus(userLabels.n, 1) })
    .where(and(eq(userLabels.userId, uid), sql`${userLabels.label} = ${labelOf(uid, noteId)}`, when)),
  db.delete(userLabels).where(and(eq(userLabels.userId, uid), eq(userLabels.n, 0))),
];

/** The original's renum, one down when the renote or quote `noteId` is about to be deleted. */
export const renumOut = (db: DB, originalId: number | SQL, noteId: number) =>
  db
    .update(notes)
    .set({ renum: plus(notes.renum, -1) })
    .where(
      and(eq(notes.id, originalId), sql`exists(select 1 from notes r where r.id = ${noteId} and r.hidden_at is null)`),
    );
