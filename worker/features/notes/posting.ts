// What the post, reply, renote, quote and edit actions share: their write, whether anyone elsewhere is
// concerned, and what a door reads after it, all in the write's own batch (one D1 round trip).
// Whether anyone elsewhere is concerned decides delivery: a post nobody on another server follows,
// is named in or is answered by reaches no queue (it is only streamed to whoever is connected here).
import { eq, type SQL, sql } from "drizzle-orm";
import { drizzleRead, pairOf, type Read, readOne } from "../../db/reads";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { REMOTE_MENTION } from "../mentions/mentions.constants";

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

/** Whether anyone elsewhere is concerned (`remote`, read about `uid`, whose row every act here has). */
const reachRead = (db: DB, uid: number, remote: SQL<number>) =>
  drizzleRead(
    db,
    {
      reach: db
        .select({ remote: sql<number>`${remote}`.as("remote") })
        .from(users)
        .where(eq(users.id, uid)),
    },
    ({ reach }) => !!(reach as { remote: number }[])[0]?.remote,
  );

/**
 * Sends `write`, then the statement that says whether anyone elsewhere is concerned (`remote`,
 * read after the write: a refused write answers its refusal first), then the door's `read`, as one
 * batch.
 */
export async function writeThen<T, R>(db: DB, uid: number, write: Read<T>, remote: SQL<number>, read: Read<R>) {
  const [[done, elsewhere], after] = await readOne(db, pairOf(pairOf(write, reachRead(db, uid, remote)), read));
  return { done, remote: elsewhere, read: after };
}
