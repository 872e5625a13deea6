// What the post, reply, quote and edit actions share: their write, whether anyone elsewhere is
// concerned, and what a door reads after it, all in the write's own batch (one D1 round trip).
// Whether anyone elsewhere is concerned decides delivery: a post nobody on another server follows,
// is named in or is answered by reaches no queue (it is only streamed to whoever is connected here).
import { eq, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { runBatch } from "../../db/client";
import { writeAsRead } from "../../db/reads";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { REMOTE_MENTION } from "../mentions/mentions.constants";

/**
 * Statements a door adds after the write, in its batch (a Mastodon status read back, an
 * Idempotency-Key remembered): they see the write; `answer` reads their own results.
 */
export interface After<R> {
  statements: BatchItem<"sqlite">[];
  answer(results: unknown[]): R;
}

/** A door that answers from the write alone. */
export const nothingAfter: After<undefined> = { statements: [], answer: () => undefined };

/** 1 when `uid` has a follower on another server (the first row of follows_followee_remote_idx). */
export const followedElsewhere = (uid: number) =>
  sql<number>`exists(select 1 from follows f where f.followee_id = ${uid} and f.remote = 1)`;

/** 1 when the note or reply `kind`/`id` names came from another server (its author is told). */
export const fromElsewhere = (kind: "note" | "reply", id: number | SQL) =>
  sql<number>`exists(select 1 from remote_objects ro where ro.kind = ${kind} and ro.row_id = ${id})`;

/**
 * Whether HTML names someone as @name@host: stored here or not yet (the consumer finds them on
 * their server), they are told by delivery.
 */
export const namesElsewhere = (html: string) => html.match(REMOTE_MENTION) !== null;

/** `remote` as a statement of the batch, read about `uid` (whose row every act here has). */
export const reachOf = (db: DB, uid: number, remote: SQL<number>) =>
  db
    .select({ remote: sql<number>`${remote}`.as("remote") })
    .from(users)
    .where(eq(users.id, uid));

/** reachOf as a Read, for a write sent as reads are (db/reads.ts). */
export const reachRead = (db: DB, uid: number, remote: SQL<number>) =>
  writeAsRead(db, {
    statements: [reachOf(db, uid, remote)],
    answer: ([rows]) => !!(rows as { remote: number }[])[0]?.remote,
  });

/**
 * Sends `write`, then the statement that says whether anyone elsewhere is concerned (`remote`,
 * read after the write: a refused write answers its refusal first), then `after`, as one batch.
 */
export async function writeThen<T, R>(
  db: DB,
  uid: number,
  write: { statements: readonly BatchItem<"sqlite">[]; answer(results: unknown[]): T },
  remote: SQL<number>,
  after: After<R>,
): Promise<{ done: T; remote: boolean; read: R }> {
  const results = await runBatch(db, [...write.statements, reachOf(db, uid, remote), ...after.statements]);
  const n = write.statements.length;
  const done = write.answer(results.slice(0, n));
  const [row] = results[n] as { remote: number }[];
  return { done, remote: !!row?.remote, read: after.answer(results.slice(n + 1)) };
}
