// Bookmarks and favourites as Mastodon lists them: notes and replies in one list, newest saved
// first. NoteX keeps each kind along its own (user_id, kind, created_at, target_id) index, so a
// page reads each kind's next rows along it (one batch) and merges them; the cursor is the last
// row's (saved at, status id), and a status id is its row's id, one space for both kinds, so the
// order is total.
import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { bindPlan, namedObjects, planFrom } from "../../db/plan";
import type { Read } from "../../db/reads";
import { notes } from "../../db/schema/notes";
import { type bookmarks, type likes, replies } from "../../db/schema/social";
import type { DB } from "../../env";
import { decodeCursor, pageOf } from "../../lib/paging";
import type { StatusRef } from "./serialise";
import type { RefsWhere } from "./statuses.service";

type SavedTable = typeof likes | typeof bookmarks;

/**
 * The statuses `uid` bookmarked or favourited, one page of `size` below `cursor`: the page's read,
 * and `where`, the same rows' ids as subqueries, so the statuses are read in the same batch.
 */
export function savedRead(db: DB, table: SavedTable, uid: number, cursor: string | undefined, size: number) {
  const after = decodeCursor(cursor);
  const t = table as typeof likes;
  const cols = { userId: t.userId as SQLiteColumn, kind: t.kind, targetId: t.targetId, at: t.createdAt };
  const below = (): SQL | undefined =>
    after ? sql`(${cols.at}, ${cols.targetId}) < (${after.at}, ${after.id})` : undefined;
  const part = (kind: StatusRef["kind"], fields: Record<string, SQLiteColumn>) =>
    db
      .select(fields)
      .from(t)
      .where(and(eq(cols.userId, uid), eq(cols.kind, kind), below()))
      .orderBy(desc(cols.at), desc(cols.targetId))
      .limit(size + 1);
  const rows = (kind: StatusRef["kind"]) => planFrom(part(kind, { id: cols.targetId, at: cols.at }));
  const plans = [rows("note"), rows("reply")];
  type Row = { id: number; at: number };
  const read: Read<{ refs: StatusRef[]; cursor: string | null }> = {
    statements: plans.map((p) => bindPlan(db, p, {})),
    value: ([n, r]) => {
      const merged = [
        ...namedObjects<Row>(plans[0], n.results).map((x) => ({ ref: note(x.id), at: x.at, sid: x.id })),
        ...namedObjects<Row>(plans[1], r.results).map((x) => ({ ref: reply(x.id), at: x.at, sid: x.id })),
      ].sort((a, b) => b.at - a.at || b.sid - a.sid);
      const page = pageOf(merged, 1, (x) => ({ at: x.at, id: x.sid }), size);
      return { refs: page.items.map((x) => x.ref), cursor: page.cursor };
    },
  };
  const where: RefsWhere = {
    notes: inArray(notes.id, part("note", { id: cols.targetId })),
    replies: inArray(replies.id, part("reply", { id: cols.targetId })),
  };
  return { read, where };
}

const note = (id: number): StatusRef => ({ kind: "note", id });
const reply = (id: number): StatusRef => ({ kind: "reply", id });
