// The write of a counted interaction with a table of its own (a like): one guarded batch, built
// once per kind, content kind and direction, from the kind's entry (kinds.ts ROWS).
import { and, eq, sql } from "drizzle-orm";
import { bindNamed, namedBatchPlanOf, namedObjects } from "../../db/plan";
import { namedRead, type Read } from "../../db/reads";
import { folders } from "../../db/schema/folders";
import { notes } from "../../db/schema/notes";
import { replies } from "../../db/schema/social";
import type { DB } from "../../env";
import {
  type Bound,
  type ContentKind,
  rowsAbout,
  type TargetFacts,
  targetAllows,
  targetFacts,
  targetRefusal,
} from "../content/content";
import { notifyStatements, unnotifyStatements } from "../notifications/notifications.links";
import { isRemote } from "../users/locality";
import type { RowEntry } from "./kinds";
import { insertWhere } from "../../db/insert";

const tableOf = (kind: ContentKind) => (kind === "note" ? notes : kind === "reply" ? replies : folders);

/**
 * The kind's count on the note, reply or folder as the write left it (the table's *_count_*
 * triggers move it), and whether it is a post from another server (then the act is told there;
 * otherwise nothing is queued).
 */
function countOf(db: DB, k: RowEntry, kind: ContentKind, id: Bound) {
  const table = tableOf(kind);
  const remote = isRemote(table.userId).as("remote");
  return db.select({ count: table[k.kind.counter], remote }).from(table).where(eq(table.id, id));
}

/**
 * The batch of one kind's write (or its undoing) on one content kind, with the request's values as
 * placeholders (user, id, now): the target's facts first, then the write and its notification,
 * each guarded by the same condition, and the count as the write left it.
 */
function rowBatch(db: DB, k: RowEntry, kind: ContentKind, on: boolean) {
  const [userId, id] = [sql.placeholder("user"), sql.placeholder("id")];
  const mine = and(eq(k.table.userId, userId), rowsAbout(k.table, kind, id));
  // To undo one's own the target need only exist (it may have become hidden or blocked since).
  const allowed = targetAllows(db, kind, id, userId, on, on);
  const write = on
    ? insertWhere(
        db,
        k.table,
        { userId: sql`${userId}`, kind, targetId: sql`${id}`, createdAt: sql`${sql.placeholder("now")}` },
        sql`${allowed} and not exists (select 1 from ${k.table} where ${mine})`,
      ).onConflictDoNothing()
    : db.delete(k.table).where(and(mine, allowed));
  const noti = {
    userId: sql<number>`(select user_id from ${tableOf(kind)} where id = ${id})`,
    actorId: userId,
    action: k.kind.name,
    tblname: kind === "reply" ? "reply" : kind === "note" ? "note" : "folder",
    targetId: id,
  };
  const notices = on
    ? notifyStatements(db, { ...noti, when: allowed })
    : unnotifyStatements(db, { ...noti, when: allowed });
  return {
    facts: targetFacts(db, kind, id, userId, on),
    write,
    count: countOf(db, k, kind, id),
    ...Object.fromEntries(notices.map((statement, i) => [`notice${i}`, statement])),
  };
}

export type RowDone = { on: boolean; count: number; remote: boolean };

/**
 * The write (or its undoing), as the statements of one batch and its answer from their results:
 * the batch reads the target's facts first and every write in it is guarded by the same
 * condition, so a refused one (404, or 403 across a block) changes nothing and is answered from
 * the facts; the notification names the owner by a subquery. The batch is built once per shape and
 * only bound here. A caller may add reads after it (the Mastodon API reads the status back).
 */
export function rowWrite(
  db: DB,
  k: RowEntry,
  userId: number,
  kind: ContentKind,
  id: number,
  on: boolean,
): Read<RowDone> {
  const plans = namedBatchPlanOf(`${k.kind.name}|${kind}|${+on}`, () => rowBatch(db, k, kind, on));
  const values = { user: userId, id, now: Date.now() };
  // The count moves with the row itself (a trigger): a repeat or a racing twin inserts nothing
  // and adds 0, in O(1); it is read back in the same batch.
  return namedRead(bindNamed(db, plans, values), (r) => {
    const [facts] = namedObjects<TargetFacts>(plans.facts, r.facts.results);
    const refused = targetRefusal(facts, on);
    if (refused) throw refused;
    const [counted] = namedObjects<{ count: number; remote: number }>(plans.count, r.count.results);
    return { on, count: counted?.count ?? 0, remote: !!counted?.remote };
  });
}
