// What a Mastodon status shows beyond NoteX's hydrated list row, read on that row itself: the
// author's whole account, the viewer's bookmark, and the same two for a renote's or quote's
// original. A page of statuses is then its list statement alone, one D1 round trip, with no
// second read by the page's ids. Each is a primary-key lookup per row shown.
import { type SQL, sql } from "drizzle-orm";
import { users } from "../../db/schema/users";
import type { UserRef } from "../content/content";
import type { ListedRows, RowExtra } from "../notes/notes.json";
import type { NoteJson, NoteList } from "../notes/notes.types";
import type { ReplyJson } from "../replies/replies.service";
import type { AccountRow, Ctx, MentionRow, RemoteObject } from "./serialise";

/** The viewer in a cached statement: bound per request. */
const VIEWER = sql.placeholder("viewer");

/** A viewer as these columns take it: a placeholder, or an id (null: a visitor) in a statement built for one request. */
type ViewerSql = typeof VIEWER | number | null;

/** Whether the viewer bookmarked the note `id` (a null viewer matches nothing). */
const bookmarkedNote = (viewer: ViewerSql, id: SQL) =>
  sql<number>`exists(select 1 from bookmarks b where b.user_id = ${viewer} and b.kind = 'note' and b.target_id = ${id})`;

/** A remote person's actor URI (null for a local one, who has no remote_actors row): one primary-key lookup. */
const actorOf = (u: SQL) => sql<string | null>`(select ra.uri from remote_actors ra where ra.user_id = ${u}.id)`;

/** A remote person's profile page on their own server (null for a local one): one primary-key lookup. */
const profileUrlOf = (u: SQL) => sql<string | null>`(select ra.url from remote_actors ra where ra.user_id = ${u}.id)`;
/**
 * A remote person's profile fields, JSON [{name, value}]; for a local one, their links and place
 * as JSON {links, location} (serialise.ts makes them fields, as the actor does).
 */
const fieldsOf = (u: SQL) =>
  sql<
    string | null
  >`coalesce((select ra.fields from remote_actors ra where ra.user_id = ${u}.id), json_object('links', ${u}.links, 'location', ${u}.location))`;

/** What an account shows beyond its `users` row, over `users`: beside a whole row (accounts.routes accountRows). */
export const REMOTE_PROFILE = {
  profileUrl: profileUrlOf(sql`"users"`).as("m_profile_url"),
  fields: fieldsOf(sql`"users"`).as("m_fields"),
};

/** An account row of `u` as JSON, with the field names of AccountRow. */
export const accountJson = (u: SQL) =>
  sql`json_object('id', ${u}.id, 'username', ${u}.username, 'fullname', ${u}.fullname, 'avatar', ${u}.avatar,
    'cover', ${u}.cover, 'descr', ${u}.descr, 'followerNum', ${u}.follower_num, 'followingNum', ${u}.following_num,
    'noteNum', ${u}.note_num, 'createdAt', ${u}.created_at, 'actor', ${actorOf(u)}, 'profileUrl', ${profileUrlOf(u)},
    'fields', ${fieldsOf(u)})`;

/**
 * The people an HTML column's mention links name (the save writes each as `<a href="/name"
 * class="mention">` or `/@name@host`: mentions.service.ts linkMentions), as a JSON array of
 * MentionRow: a recursive CTE walks the links off the text (as many as a note notifies) and each
 * name is found along the username index, a remote person with their profile page. Text without a
 * mention link reads null (no mentions) without the CTE, whose rows D1 counts as read: most
 * statuses of a page name nobody.
 */
const mentionsJson = (
  html: SQL,
) => sql`(case when instr(${html}, '" class="mention">') > 0 then (with recursive m(rest, name) as (
    select ${html}, null
    union all
    select substr(rest, instr(rest, '" class="mention">') + 18), substr(rest, 1, instr(rest, '" class="mention">') - 1)
    from m where instr(rest, '" class="mention">') > 0 limit 11)
  select json_group_array(json_object('id', u.id, 'username', u.username, 'url', ra.url, 'actor', ra.uri))
  from m join users u on lower(u.username) = lower(ltrim(substr(m.name, length(rtrim(m.name, replace(m.name, '/', ''))) + 1), '@'))
  left join remote_actors ra on ra.user_id = u.id
  where m.name is not null) end)`;

/** The author's account columns, over the `users` a list or status row is joined to. */
export const ACCOUNT_COLUMNS = {
  mCover: sql<string>`${users.cover}`.as("m_cover"),
  mDescr: sql<string>`${users.descr}`.as("m_descr"),
  mFollowers: sql<number>`${users.followerNum}`.as("m_followers"),
  mFollowing: sql<number>`${users.followingNum}`.as("m_following"),
  mNotes: sql<number>`${users.noteNum}`.as("m_notes"),
  mCreated: sql<number>`${users.createdAt}`.as("m_created"),
  mActor: sql<string | null>`${actorOf(sql`"users"`)}`.as("m_actor"),
  mProfileUrl: profileUrlOf(sql`"users"`).as("m_profile_url"),
  mFields: fieldsOf(sql`"users"`).as("m_fields"),
};

/** A remote post's own id and page (remote_objects, along its (kind, row_id) index), as JSON; null for a local one. */
const objectJson = (kinds: SQL, row: SQL) =>
  sql<
    string | null
  >`(select json_object('uri', ro.uri, 'url', ro.url) from remote_objects ro where ro.kind in (${kinds}) and ro.row_id = ${row})`;

/** A person's account columns on a row joined to their `users` (a notice's actor, a search's hit). */
export const ACCOUNT_EXTRA: RowExtra = { name: "masto", columns: ACCOUNT_COLUMNS };

/** The actor's account columns on a notification's row (joined to its actor's `users`). */
export const NOTICE_COLUMNS = ACCOUNT_EXTRA;

/** The columns of a note's row (its `notes` joined to its author's `users`) a status needs. */
export const statusColumns = (viewer: ViewerSql) => ({
  ...ACCOUNT_COLUMNS,
  mBookmarked: bookmarkedNote(viewer, sql`"notes"."id"`).as("m_bookmarked"),
  mOriginalAccount: sql<
    string | null
  >`(select ${accountJson(sql`ou`)} from notes o join users ou on ou.id = o.user_id where o.id = "notes"."renote_id")`.as(
    "m_original_account",
  ),
  mOriginalBookmarked: bookmarkedNote(viewer, sql`"notes"."renote_id"`).as("m_original_bookmarked"),
  mMentions: mentionsJson(sql`"notes"."content"`).as("m_mentions"),
  mObject: objectJson(sql`'note', 'renote'`, sql`"notes"."id"`).as("m_object"),
  mOriginalObject: objectJson(sql`'note'`, sql`"notes"."renote_id"`).as("m_original_object"),
  mOriginalMentions: mentionsJson(sql`(select o.content from notes o where o.id = "notes"."renote_id")`).as(
    "m_original_mentions",
  ),
});

/** The same for a list's cached statement. */
export const STATUS_COLUMNS: RowExtra = { name: "masto", columns: statusColumns(VIEWER) };

/** Who wrote what a reply (a `replies` row) answers: its parent reply, else its note. */
export const replyParentAuthor = sql<number | null>`(case when "replies"."parent_reply_id" is null
    then (select p.user_id from notes p where p.id = "replies"."note_id")
    else (select p.user_id from replies p where p.id = "replies"."parent_reply_id") end)`;

/**
 * The columns of a reply's row (`replies` joined to its author's `users`) a status needs: its
 * author's account, the viewer's bookmark, and who wrote what it answers (one primary-key lookup).
 */
export const replyStatusColumns = (viewer: ViewerSql) => ({
  ...ACCOUNT_COLUMNS,
  mBookmarked:
    sql<number>`exists(select 1 from bookmarks b where b.user_id = ${viewer} and b.kind = 'reply' and b.target_id = "replies"."id")`.as(
      "m_bookmarked",
    ),
  mParentAuthor: replyParentAuthor.as("m_parent_author"),
  mMentions: mentionsJson(sql`"replies"."content"`).as("m_mentions"),
  mObject: objectJson(sql`'reply'`, sql`"replies"."id"`).as("m_object"),
});

interface StatusRow {
  mCover: string;
  mDescr: string;
  mFollowers: number;
  mFollowing: number;
  mNotes: number;
  mCreated: number;
  mActor: string | null;
  mProfileUrl: string | null;
  mFields: string | null;
  mBookmarked: number;
  mOriginalAccount: string | null;
  mOriginalBookmarked: number;
  mMentions: string | null;
  mOriginalMentions: string | null;
  mObject: string | null;
  mOriginalObject: string | null;
}

export const emptyCtx = (origin: string): Ctx => ({
  origin,
  accounts: new Map(),
  bookmarked: new Set(),
  mentions: new Map(),
  objects: new Map(),
});

/** The people a status mentions, from its row's JSON, kept under its key ("note:1", "reply:2"). */
function addMentions(ctx: Ctx, key: string, json: string | null) {
  const rows = json ? (JSON.parse(json) as MentionRow[]) : [];
  if (rows.length) ctx.mentions.set(key, rows);
}

/** A remote status's own uri and url, from its row's JSON. */
function addObject(ctx: Ctx, key: string, json: string | null) {
  if (json) ctx.objects.set(key, JSON.parse(json) as RemoteObject);
}

/** Adds what a note's row (read with STATUS_COLUMNS) shows to the page's accounts and bookmarks. */
export function addNote(ctx: Ctx, n: NoteJson, row: Record<string, unknown>) {
  const r = row as unknown as StatusRow;
  addAuthor(ctx, n.user, row);
  if (r.mBookmarked) ctx.bookmarked.add(`note:${n.id}`);
  addMentions(ctx, `note:${n.id}`, r.mMentions);
  addObject(ctx, `note:${n.id}`, r.mObject);
  if (n.renote && r.mOriginalAccount) {
    const a = JSON.parse(r.mOriginalAccount) as AccountRow;
    ctx.accounts.set(a.id, a);
    if (r.mOriginalBookmarked) ctx.bookmarked.add(`note:${n.renote.id}`);
    addMentions(ctx, `note:${n.renote.id}`, r.mOriginalMentions);
    addObject(ctx, `note:${n.renote.id}`, r.mOriginalObject);
  }
}

/** Adds what a reply's row (read with replyStatusColumns) shows. */
export function addReply(ctx: Ctx, reply: ReplyJson, row: Record<string, unknown>) {
  const r = row as unknown as StatusRow;
  addAuthor(ctx, reply.user, row);
  if (r.mBookmarked) ctx.bookmarked.add(`reply:${reply.id}`);
  addMentions(ctx, `reply:${reply.id}`, r.mMentions);
  addObject(ctx, `reply:${reply.id}`, r.mObject);
}

export function addAuthor(ctx: Ctx, user: UserRef, row: Record<string, unknown>) {
  ctx.accounts.set(user.id, accountRowOf(user, row));
}

/** A person's account row from their name fields and a row read with ACCOUNT_COLUMNS. */
export function accountRowOf(
  user: { id: number; username: string; fullname: string; avatar: string },
  row: Record<string, unknown>,
): AccountRow {
  const r = row as unknown as StatusRow;
  const { id, username, fullname, avatar } = user;
  return {
    id,
    username,
    fullname,
    avatar,
    cover: r.mCover,
    descr: r.mDescr,
    followerNum: r.mFollowers,
    followingNum: r.mFollowing,
    noteNum: r.mNotes,
    createdAt: r.mCreated,
    actor: r.mActor,
    profileUrl: r.mProfileUrl,
    fields: r.mFields,
  };
}

/** The accounts and bookmarks a page of notes shows, from its rows as read with STATUS_COLUMNS. */
export function ctxOfRows(origin: string, { list, rows }: { list: NoteList; rows: ListedRows["rows"] }): Ctx {
  const ctx = emptyCtx(origin);
  list.notes.forEach((n, i) => {
    addNote(ctx, n, rows[i]);
  });
  return ctx;
}
