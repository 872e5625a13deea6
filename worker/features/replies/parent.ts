import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { replies } from "../../db/schema/social";

/** What a reply answers: its note itself, or a reply under that note. */
export type ReplyParent = { kind: "note" | "reply"; id: number };

/**
 * The spec's `parent` (the `/v1` field and query): the negative of the note's id for a reply on a
 * note, else the parent reply's id. Only the `/v1` edge speaks it; rows keep `parent_reply_id`.
 */
export const parentFromSpec = (parent: number): ReplyParent =>
  parent < 0 ? { kind: "note", id: -parent } : { kind: "reply", id: parent };

export const specParent = (r: { noteId: number; parentReplyId: number | null }): number => r.parentReplyId ?? -r.noteId;

/** The replies that answer `parent` directly (a note's own: those without a parent reply). */
export const answering = (parent: ReplyParent): SQL =>
  parent.kind === "note"
    ? (and(eq(replies.noteId, parent.id), isNull(replies.parentReplyId)) as SQL)
    : eq(replies.parentReplyId, parent.id);

/** The same over the replies row `alias`, with the id given as SQL (a plan's placeholder). */
export const answeringAt = (alias: string, kind: ReplyParent["kind"], id: SQL): SQL => {
  const r = sql.identifier(alias);
  return kind === "note"
    ? sql`${r}.note_id = ${id} and ${r}.parent_reply_id is null`
    : sql`${r}.parent_reply_id = ${id}`;
};

/** What the reply row `r` answers. */
export const parentOf = (r: { noteId: number; parentReplyId: number | null }): ReplyParent =>
  r.parentReplyId === null ? { kind: "note", id: r.noteId } : { kind: "reply", id: r.parentReplyId };
