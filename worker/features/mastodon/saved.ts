// Bookmarks and favourites as Mastodon lists them: notes and replies in one list, newest saved
// first. NoteX keeps each kind along its own (user_id, kind, created_at, target_id) index, so a
// page reads each kind's next rows along it (one batch) and merges them; the cursor is the last
// row's (saved at, status id), and a status id says its kind (serialise.ts), so the order is total.
import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { bookmarks, likes } from "../../db/schema/social";
import type { DB } from "../../env";
import { decodeCursor, pageOf } from "../../lib/paging";
import type { StatusRef } from "./serialise";

type SavedTable = typeof likes | typeof bookmarks;

/** The statuses `uid` bookmarked or favourited, one page of `size` below `cursor`. */
export async function savedPage(db: DB, table: SavedTable, uid: number, cursor: string | undefined, size: number) {
  const after = decodeCursor(cursor);
  const t = table as typeof likes;
  const cols = { userId: t.userId as SQLiteColumn, kind: t.kind, targetId: t.targetId, at: t.createdAt };
  // Below (at, status id): a note n (status 2n) comes before the cursor when n < ceil(id / 2), a
  // reply r (status 2r + 1) when r < floor(id / 2).
  const below = (kind: StatusRef["kind"]): SQL | undefined => {
    if (!after) return undefined;
    const bound = kind === "note" ? Math.ceil(after.id / 2) : Math.floor(after.id / 2);
    return sql`(${cols.at}, ${cols.targetId}) < (${after.at}, ${bound})`;
  };
  const part = (kind: StatusRef["kind"]) =>
    db
      .select({ id: cols.targetId, at: cols.at })
      .from(t)
      .where(and(eq(cols.userId, uid), eq(cols.kind, kind), below(kind)))
      .orderBy(desc(cols.at), desc(cols.targetId))
      .limit(size + 1);
  const [notes, replies] = await db.batch([part("note"), part("reply")]);
  const rows = [
    ...notes.map((r) => ({ ref: { kind: "note" as const, id: r.id }, at: r.at, sid: r.id * 2 })),
    ...replies.map((r) => ({ ref: { kind: "reply" as const, id: r.id }, at: r.at, sid: r.id * 2 + 1 })),
  ].sort((a, b) => b.at - a.at || b.sid - a.sid);
  const page = pageOf(rows, 1, (r) => ({ at: r.at, id: r.sid }), size);
  return { refs: page.items.map((r): StatusRef => r.ref), cursor: page.cursor };
}
