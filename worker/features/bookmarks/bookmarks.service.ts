import { and, eq, sql } from "drizzle-orm";
import { bookmarks } from "../../db/schema/social";
import type { DB } from "../../env";
import { type ListShape, listRead } from "../notes/read.service";
import { type ReplyList, repliesRead } from "../replies/replies.service";
import type { NoteList } from "../notes/notes.types";
import { type Read, readOne } from "../../db/reads";

/** Newest saved first, read along bookmarks (user_id, kind, created_at, target_id). */
const BOOKMARKED_NOTES: ListShape = {
  name: "bookmarks",
  driver: {
    table: bookmarks,
    at: bookmarks.createdAt,
    id: bookmarks.targetId,
    where: and(eq(bookmarks.userId, sql.placeholder("uid")), eq(bookmarks.kind, "note")),
  },
};

/** The saved notes, or the saved replies, of `uid`: newest saved first. One statement. */
export function bookmarksRead(
  db: DB,
  uid: number,
  q: { page: number; cursor?: string; t: "note" | "rep" | "reply" },
): Read<NoteList | ReplyList> {
  if (q.t === "note") return listRead(db, BOOKMARKED_NOTES, { uid }, q, uid);
  return repliesRead(
    db,
    sql`replies.id in (select target_id from bookmarks where user_id = ${uid} and kind = 'reply')`,
    q,
    uid,
    "desc",
  );
}

export const listBookmarks = (...args: Parameters<typeof bookmarksRead>) => readOne(args[0], bookmarksRead(...args));
