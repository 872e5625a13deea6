// Contract between notes and notifications (the social feature implements these; notes calls them).
import type { BatchItem } from "drizzle-orm/batch";
import type { DB } from "../../env";

/**
 * Statements that notify every follower of `actorId` of a new note (action "note"), for the notes
 * service's db.batch when a note is created. Must not notify the actor.
 */
export function noteCreatedStatements(
  _db: DB,
  _n: { actorId: number; noteId: number; extra: string },
): BatchItem<"sqlite">[] {
  return [];
}

/** Statements removing every notification about a note (on delete). */
export function noteDeletedStatements(_db: DB, _noteId: number): BatchItem<"sqlite">[] {
  return [];
}
