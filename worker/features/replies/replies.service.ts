import { and, asc, desc, eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import { notes } from "../../db/schema/notes";
import { replies } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { insertWhere } from "../../db/insert";
import type { PreparedWrite } from "../notes/notes.insert";
import { plus } from "../../db/counters";
import type { DB } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import { htmlToText, sanitizeHtml } from "../../lib/sanitize";
import { mentionStatements, notifyStatements } from "../notifications/notifications.links";
import { linkMentions } from "../mentions/mentions.service";
import { noteFromRows, noteQuery } from "../notes/read.service";
import { likedBy } from "../likes/likes.service";
import { bindPlan, namedObjects, planFrom, planOf } from "../../db/plan";
import { drizzleRead, type Read, type Rows, readOne } from "../../db/reads";
import type { NoteJson } from "../notes/notes.types";
import type { UserRef } from "../content/content";
import { answeringAt, parentOf, type ReplyParent, specParent } from "./parent";
import { refuseBlocked } from "../safety/safety.service";
import { blockState, openable, replyInList, replyOpenable } from "../safety/visibility";

export const MAX_REPLY = 500;

export interface ReplyJson {
  id: number;
  uid: number;
  content: string;
  txt: string;
  /** The spec's encoding: -noteId for a reply on a note, else the parent reply's id. */
  parent: number;
  /** The reply it answers (null: it answers the note). */
  parent_reply_id: number | null;
  note_id: number;
  user: UserRef;
  liked: boolean;
  likenum: number;
  repnum: number;
  created_at: number;
}

/** Sanitised HTML and its text, with the spec's limits and messages. */
export function replyContent(content: string): { content: string; txt: string } {
  const html = sanitizeHtml(content);
  const txt = htmlToText(html);
  if (!txt.trim())
    throw new AppError(422, "invalid_input", "Please enter your reply.", { content: "Please enter your reply." });
  if ([...txt].length > MAX_REPLY) {
    throw new AppError(422, "invalid_input", "Reply should be less than 500 characters long.", {
      content: "Reply should be less than 500 characters long.",
    });
  }
  return { content: html, txt };
}

const REPLY_COLUMNS = getTableColumns(replies);

/**
 * A reply row (flat) with its author and whether the viewer liked it (one lookup per returned row),
 * and any `extra` columns a caller's joins provide (search's rank window).
 */
export const select = <X extends Record<string, SQL.Aliased>>(db: DB, viewer: unknown, extra?: X) =>
  db
    .select({
      ...REPLY_COLUMNS,
      username: users.username,
      fullname: users.fullname,
      avatar: users.avatar,
      // Named, so a batch (which reads rows by column name) never sees a bare "0" column.
      liked: (viewer ? likedBy(viewer, "reply", sql`${replies.id}`) : sql<number>`0`).as("x_liked"),
      ...(extra as X),
    })
    .from(replies)
    .innerJoin(users, eq(users.id, replies.userId));

type Joined = Awaited<ReturnType<ReturnType<typeof select>["all"]>>[number];

export const toJson = (r: Joined, viewer: number | null): ReplyJson => ({
  id: r.id,
  uid: r.userId,
  content: r.content,
  txt: r.txt,
  parent: specParent(r),
  parent_reply_id: r.parentReplyId,
  note_id: r.noteId,
  user: { id: r.userId, username: r.username, fullname: r.fullname, avatar: r.avatar, me: r.userId === viewer },
  liked: !!r.liked,
  likenum: r.likenum,
  repnum: r.repnum,
  created_at: r.createdAt,
});

export type ReplyList = { replies: ReplyJson[]; paginator: { page: number; is_end: boolean }; cursor: string | null };

/** A page of replies; threads read oldest first, bookmark lists newest first. One statement. */
export function repliesRead(
  db: DB,
  where: SQL,
  q: { page: number; cursor?: string },
  viewer: number | null,
  order: "asc" | "desc" = "asc",
): Read<ReplyList> {
  const { after, offset } = startOf(q);
  const cmp = order === "asc" ? sql`>` : sql`<`;
  const keyset = after ? sql`(${replies.createdAt}, ${replies.id}) ${cmp} (${after.at}, ${after.id})` : undefined;
  const dir = order === "asc" ? asc : desc;
  const plan = planFrom(
    select(db, viewer)
      .where(and(where, replyInList(sql`"replies"`, viewer, undefined, sql`"users"`), keyset))
      .orderBy(dir(replies.createdAt), dir(replies.id))
      .limit(PAGE_SIZE + 1)
      .offset(offset),
  );
  return {
    statements: [bindPlan(db, plan, {})],
    value: ([r]) => {
      const page = pageOf(namedObjects<Joined>(plan, r.results), q.page, (x) => ({ at: x.createdAt, id: x.id }));
      return { replies: page.items.map((x) => toJson(x, viewer)), paginator: page.paginator, cursor: page.cursor };
    },
  };
}

export const listReplies = (...args: Parameters<typeof repliesRead>) => readOne(args[0], repliesRead(...args));

/** The counter of what a reply answers (its note, or its parent reply) moved by `by`. */
function countParent(db: DB, parent: ReplyParent, by: (col: SQLiteColumn) => SQL<number>, guard?: SQL) {
  return parent.kind === "note"
    ? db
        .update(notes)
        .set({ repnum: by(notes.repnum) })
        .where(and(eq(notes.id, parent.id), guard))
    : db
        .update(replies)
        .set({ repnum: by(replies.repnum) })
        .where(and(eq(replies.id, parent.id), guard));
}

/** A reply repeated by its author under the same parent within this window is the same reply. */
export const REPEAT_WINDOW_MS = 60_000;

/**
 * Posts a reply in one batch. Its first statements read the facts: the parent as the replier may
 * open it (a 404), a block with its author or the note's author (a 403), and the same reply if its
 * author just posted it (a double click, a resubmitted form: answered again instead of posted
 * twice, as posting platforms do; read along replies_user_idx, the author's last minute of
 * replies). Every write carries the same condition; the parent's counter moves before the insert,
 * which then surely adds one row. The statements after the insert name the new reply as the
 * author's reply under this parent stamped with this request's time, and the batch ends by reading
 * the reply it answers (the new one, or the repeat). Whoever is named and is also the author
 * answered is told once, of the reply. `named`: the people it mentions when they are not its
 * text's @words (a reply from elsewhere: its Mention tags).
 */
export async function prepareReply(
  db: DB,
  uid: number,
  parent: ReplyParent,
  raw: string,
  named?: number[],
): Promise<PreparedWrite<ReplyJson>> {
  const { content: html, txt } = replyContent(raw);
  const linked = await linkMentions(db, uid, html);
  const { html: content } = linked;
  // A reply from elsewhere names people by its Mention tags, not by the @words of its text.
  const userIds = named ?? linked.userIds;
  const now = Date.now();
  // Known before the batch: the notices below name it, and it is read back by it.
  const id = newId("reply", now);
  const onNote = parent.kind === "note";
  const target = onNote ? noteTarget(db, uid, parent.id) : replyTarget(db, uid, parent.id);
  const allowed = sql`exists(select 1 from (${target}) t where t.blocked = 0 and t.note_blocked = 0)`;
  const mine = sql`r.user_id = ${uid} and ${answeringAt("r", parent.kind, sql`${parent.id}`)}`;
  const repeat = sql<number>`(select max(r.id) from replies r where ${mine} and r.txt = ${txt} and r.created_at > ${now - REPEAT_WINDOW_MS})`;
  const ok = sql`(${allowed} and ${repeat} is null)`;
  const made = sql<number>`(select r.id from replies r where r.id = ${id})`;
  const answered = sql<number>`(select t.owner_id from (${target}) t)`;
  const statements = {
    facts: target,
    counted: countParent(db, parent, (col) => plus(col, 1), ok),
    made: insertWhere(
      db,
      replies,
      {
        id,
        userId: uid,
        noteId: sql`(select t.note_id from (${target}) t)`,
        parentReplyId: onNote ? null : parent.id,
        content,
        txt,
        createdAt: now,
      },
      ok,
    ),
    told: notifyStatements(db, {
      userId: answered,
      actorId: uid,
      action: "reply",
      tblname: "reply",
      targetId: made,
      extra: txt.slice(0, 100),
      when: sql`${made} is not null`,
    }),
    mentioned: mentionStatements(db, {
      actorId: uid,
      tblname: "reply",
      targetId: made,
      userIds,
      extra: txt,
      when: sql`${made} is not null`,
      answered,
    }),
    reply: select(db, uid).where(eq(replies.id, sql`coalesce(${made}, ${repeat})`)),
  };
  const answer = (rows: { facts: Rows; reply: Rows }) => {
    const [facts] = rows.facts as { blocked: number; noteBlocked: number }[];
    if (!facts) throw notFound("Not found");
    refuseBlocked(facts.blocked || facts.noteBlocked);
    const [row] = rows.reply as Joined[];
    if (!row) throw notFound("Not found");
    return toJson(row, uid);
  };
  // `id`: the reply it answers, the new one or the repeat (null when refused).
  return {
    ...drizzleRead(db, statements, answer),
    id: sql<number>`(select coalesce(${made}, ${repeat}) where ${allowed})`,
  };
}

/** The facts about a note replied to: open to the replier, its author and the block between them. */
const noteTarget = (db: DB, uid: number, noteId: number) =>
  db
    .select({
      noteId: sql<number>`${notes.id}`.as("note_id"),
      ownerId: sql<number>`${notes.userId}`.as("owner_id"),
      blocked: blockState(uid, notes.userId).as("blocked"),
      noteBlocked: sql<number>`0`.as("note_blocked"),
    })
    .from(notes)
    .where(and(eq(notes.id, noteId), openable(sql`"notes"`, uid, { blocks: false })))
    .limit(1);

/** The same about a reply replied to, with the block with its note's author as well. */
const replyTarget = (db: DB, uid: number, replyId: number) =>
  db
    .select({
      noteId: sql<number>`${replies.noteId}`.as("note_id"),
      ownerId: sql<number>`${replies.userId}`.as("owner_id"),
      blocked: blockState(uid, replies.userId).as("blocked"),
      noteBlocked: blockState(uid, sql`(select user_id from notes where id = ${replies.noteId})`).as("note_blocked"),
    })
    .from(replies)
    .where(and(eq(replies.id, replyId), replyOpenable(sql`"replies"`, uid, { blocks: false })))
    .limit(1);

export async function getReply(db: DB, id: number, viewer: number | null): Promise<ReplyJson> {
  const [row] = await select(db, viewer).where(eq(replies.id, id)).limit(1);
  if (!row) throw notFound("Reply not found");
  return toJson(row, viewer);
}

/** The caller's reply `id`, as the first statement of a batch that changes it (none: not theirs). */
const ownReply = (db: DB, uid: number, id: number) =>
  db
    .select({ noteId: replies.noteId, parentReplyId: replies.parentReplyId })
    .from(replies)
    .where(and(eq(replies.id, id), eq(replies.userId, uid)));

/** The guard of every write about the caller's reply `id`. */
const ownsReply = (uid: number, id: number) =>
  sql`exists(select 1 from replies o where o.id = ${id} and o.user_id = ${uid})`;

/**
 * Editing the caller's reply, built for one batch: the reply read first (a 404 when it is not
 * theirs), the update and the mentions each guarded by the same condition; a caller may add reads
 * after it.
 */
export async function prepareEditReply(db: DB, uid: number, id: number, raw: string, named?: number[]) {
  const { content: html, txt } = replyContent(raw);
  const linked = await linkMentions(db, uid, html);
  const { html: content } = linked;
  const userIds = named ?? linked.userIds;
  const ok = ownsReply(uid, id);
  const statements = {
    own: ownReply(db, uid, id),
    updated: db
      .update(replies)
      .set({ content, txt, updatedAt: Date.now() })
      .where(and(eq(replies.id, id), ok)),
    // A mention names its author once the reply is the caller's.
    mentioned: mentionStatements(db, { actorId: uid, tblname: "reply", targetId: id, userIds, extra: txt, when: ok }),
  };
  const answer = (rows: { own: Rows }) => {
    if (!rows.own.length) throw notFound("Reply not found");
  };
  return drizzleRead(db, statements, answer);
}

/**
 * Deleting a reply deletes its whole subtree (as a thread would read without it) and recounts, in
 * one batch: the reply read first (a 404 when it is not the caller's), each write guarded by the
 * same condition. Answers what it replied to (federation tells that author).
 */
export function prepareDeleteReply(db: DB, uid: number, id: number) {
  const subtree = sql`with recursive sub(id) as (select ${id} union all select r.id from replies r join sub on r.parent_reply_id = sub.id) select id from sub`;
  const ok = ownsReply(uid, id);
  // What it answers as the batch finds it: its note when it has no parent reply, else that reply.
  const noteParent = sql`(select note_id from replies where id = ${id} and parent_reply_id is null)`;
  const replyParent = sql`(select parent_reply_id from replies where id = ${id})`;
  // Only the parent's direct child counts; guarded, so a racing second delete takes nothing off.
  const counted = sql`${ok} and exists(select 1 from replies where id = ${id} and hidden_at is null)`;
  const statements = {
    own: ownReply(db, uid, id),
    noteCounted: db
      .update(notes)
      .set({ repnum: plus(notes.repnum, -1) })
      .where(and(sql`${notes.id} = ${noteParent}`, counted)),
    replyCounted: db
      .update(replies)
      .set({ repnum: plus(replies.repnum, -1) })
      .where(and(sql`${replies.id} = ${replyParent}`, counted)),
    // The likes, bookmarks, reports and notifications about each go with it (foreign keys).
    deleted: db.delete(replies).where(and(sql`${replies.id} in (${subtree})`, ok)),
  };
  const answer = (rows: { own: Rows }): { parent: ReplyParent } => {
    const [row] = rows.own as { noteId: number; parentReplyId: number | null }[];
    if (!row) throw notFound("Reply not found");
    return { parent: parentOf(row) };
  };
  return drizzleRead(db, statements, answer);
}

/**
 * The ancestor chain of a reply, ending with the reply itself (its author must be `username`), and
 * the note it hangs under: two statements, sent together.
 */
export function chainRead(
  db: DB,
  id: number,
  username: string,
  viewer: number | null,
): Read<{ replies: ReplyJson[]; note: NoteJson }> {
  // Built once per viewer kind (placeholders), then only bound: reply detail is a hot read.
  const chainPlan = planOf(`replyChain|${+!!viewer}`, () => {
    const up = sql`with recursive up(id, parent, depth) as (
      select id, parent_reply_id, 0 from replies where id = ${sql.placeholder("id")}
      union all select r.id, r.parent_reply_id, up.depth + 1 from replies r join up on r.id = up.parent where up.depth < 1000)
    select id from up`;
    const v = viewer ? sql.placeholder("viewer") : null;
    return select(db, v).where(and(sql`${replies.id} in (${up})`, replyOpenable(sql`"replies"`, v)));
  });
  const notePlan = planOf(`noteOfReply|${+!!viewer}`, () =>
    noteQuery(
      db,
      sql`${notes.id} = (select note_id from replies where id = ${sql.placeholder("id")})`,
      viewer ? sql.placeholder("viewer") : null,
    ),
  );
  const values = { id, viewer };
  return {
    statements: [bindPlan(db, chainPlan, values), bindPlan(db, notePlan, values)],
    value: ([found, noteRows]) => {
      // The chain is as long as the thread is deep: sorted here, so the query needs no temp B-tree.
      const rows = namedObjects<Joined>(chainPlan, found.results).sort(
        (a, b) => a.createdAt - b.createdAt || a.id - b.id,
      );
      const focus = rows.find((x) => x.id === id);
      if (!focus || focus.username.toLowerCase() !== username.toLowerCase()) throw notFound("Reply not found");
      return {
        replies: rows.map((x) => toJson(x, viewer)),
        note: noteFromRows(namedObjects(notePlan, noteRows.results), viewer),
      };
    },
  };
}

export const chain = (db: DB, id: number, username: string, viewer: number | null) =>
  readOne(db, chainRead(db, id, username, viewer));
