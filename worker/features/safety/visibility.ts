// The one visibility rule of NoteX, as SQL fragments for any statement that reads notes, replies
// or users for a viewer (lists, details, search). Every fragment is a primary-key or index lookup
// keyed on the viewer and the row's author, so a list stays one statement and one round trip; a
// plan passes `sql.placeholder("viewer")` as the viewer and stays built once per shape.
//
// Semantics (Mastodon and Bluesky agree on these):
// - hidden by a moderator: gone from every list for everyone; the page answers 404 except to its
//   owner and moderators;
// - a suspended author: all their content and their profile are gone, except to moderators;
// - a block, either way: the two never see each other's content (lists and pages) and cannot interact;
// - a server the viewer blocked (their own domain block): one-way, as a block of each of its people
//   that only the viewer holds; its people's notes, renotes, replies and notices leave every list
//   of the viewer's, while a deliberate visit (a link to a note) still opens;
// - a mute: one-way and silent; the muted author's notes, renotes and replies leave the muter's
//   lists, but a deliberate visit (their profile, a link to a note) still shows them.
import type { Placeholder, SQL } from "drizzle-orm";
import { sql } from "drizzle-orm";

/** A viewer for a fragment: a placeholder, a bound value, or null for a visitor. */
export type Viewer = SQL | Placeholder | number | null;

/** Whether either of `a` and `b` has blocked the other: two primary-key lookups. */
export const blockedEither = (a: unknown, b: unknown) =>
  sql`(exists(select 1 from blocks bk where bk.blocker_id = ${a} and bk.blocked_id = ${b}) or exists(select 1 from blocks bk where bk.blocker_id = ${b} and bk.blocked_id = ${a}))`;

/** Whether `viewer` muted `author`: one primary-key lookup. */
export const mutedBy = (viewer: unknown, author: unknown) =>
  sql`exists(select 1 from mutes mu where mu.muter_id = ${viewer} and mu.muted_id = ${author})`;

/**
 * Whether `viewer` blocked the server `author` is on (user_domain_blocks). The first test names
 * no row of the list, so SQLite answers it once per statement: a viewer who blocked no server
 * pays nothing per row; one who did pays two primary-key lookups per row.
 */
export const domainBlockedBy = (viewer: unknown, author: unknown) =>
  sql`(exists(select 1 from user_domain_blocks ud where ud.user_id = ${viewer}) and exists(select 1 from remote_actors dr join user_domain_blocks dk on dk.user_id = ${viewer} and dk.host = dr.host where dr.user_id = ${author}))`;

/** 1 when `a` blocked the server `b` is on, 2 when `b` blocked `a`'s, else 0 (a follow's refusal). */
export const serverBlockState = (a: unknown, b: unknown) =>
  sql<number>`(case when ${domainBlockedBy(a, b)} then 1 when ${domainBlockedBy(b, a)} then 2 else 0 end)`;

/** Whether `viewer` is a moderator or admin (a visitor's 0 is no one). */
export const isModerator = (viewer: unknown) =>
  sql`exists(select 1 from users mv where mv.id = ${viewer} and mv.role in ('moderator', 'admin'))`;

/** The author of a row is not suspended. */
export const authorActive = (author: unknown) =>
  sql`not exists(select 1 from users su where su.id = ${author} and su.suspended_at is not null)`;

/** 1 when the viewer blocked the owner, 2 when the owner blocked the viewer, else 0 (for a 403 message). */
export const blockState = (viewer: unknown, owner: unknown) =>
  sql<number>`(case when exists(select 1 from blocks bk where bk.blocker_id = ${viewer} and bk.blocked_id = ${owner}) then 1 when exists(select 1 from blocks bk where bk.blocker_id = ${owner} and bk.blocked_id = ${viewer}) then 2 else 0 end)`;

/** How a list treats a viewer's mutes: lists of one author the viewer chose to open keep them. */
export interface ListRule {
  mute: boolean;
}

/**
 * The people part of the rule: the person is active, not blocked either way, and (if asked) not
 * muted. `row` names the person's users row when the statement already joins it: the suspension
 * check then reads the row in hand instead of looking it up again (one row read fewer per row
 * scanned, which is what keeps an OFFSET page within its budget).
 */
export function personVisible(author: unknown, viewer: Viewer, rule: ListRule = { mute: false }, row?: SQL): SQL {
  const parts = [row ? sql`${row}.suspended_at is null` : authorActive(author)];
  if (viewer !== null) {
    parts.push(sql`not ${blockedEither(viewer, author)}`, sql`not ${domainBlockedBy(viewer, author)}`);
    if (rule.mute) parts.push(sql`not ${mutedBy(viewer, author)}`);
  }
  return sql.join(parts, sql` and `);
}

/**
 * A row of a list of notes (alias `n`, SQL naming the notes row): not hidden, its author visible,
 * and a plain renote (kind 1) only while its original is visible too.
 */
export function noteInList(n: SQL, viewer: Viewer, rule: ListRule = { mute: true }, author?: SQL): SQL {
  return sql`(${noteItselfInList(n, viewer, rule)} and ${personVisible(sql`${n}.user_id`, viewer, rule, author)})`;
}

/**
 * The note's own part of noteInList (not hidden; a plain renote only while its original is
 * visible), for a statement that has applied personVisible to the author once already (the
 * following feed's merge checks each followed person once, not once per note).
 */
export function noteItselfInList(n: SQL, viewer: Viewer, rule: ListRule = { mute: true }): SQL {
  return sql`(${n}.hidden_at is null and (${n}.kind != 1 or exists(select 1 from notes ro where ro.id = ${n}.renote_id and ${originalVisible(sql`ro`, viewer, rule)})))`;
}

/** The original a renote or quote shows: not hidden and its author visible (else it shows as gone). */
export function originalVisible(o: SQL, viewer: Viewer, rule: ListRule = { mute: true }, author?: SQL): SQL {
  return sql`(${o}.hidden_at is null and ${personVisible(sql`${o}.user_id`, viewer, rule, author)})`;
}

/**
 * A reply in a list: not hidden, its author visible, and its thread open to the viewer (a thread
 * goes with its note and its parent: no list shows what hangs under removed content).
 */
export function replyInList(r: SQL, viewer: Viewer, rule: ListRule = { mute: true }, author?: SQL): SQL {
  return sql`(${r}.hidden_at is null and ${personVisible(sql`${r}.user_id`, viewer, rule, author)} and ${threadOpen(r, viewer)})`;
}

/**
 * A note or reply opened by its address: hidden content and suspended authors answer only to the
 * owner and moderators; a block either way hides it (unless `blocks` is false: an interaction
 * answers a block with a 403 of its own); a mute does not (the viewer asked for it).
 */
export function openable(row: SQL, viewer: Viewer, { blocks = true } = {}): SQL {
  const seen = sql`(${row}.hidden_at is null and ${authorActive(sql`${row}.user_id`)})`;
  if (viewer === null) return seen;
  const allowed = sql`(${row}.user_id = ${viewer} or ${seen} or ${isModerator(viewer)})`;
  return blocks ? sql`(${allowed} and not ${blockedEither(viewer, sql`${row}.user_id`)})` : allowed;
}

/**
 * The thread a reply hangs in is open to the viewer: its note opens for them (hidden, a suspended
 * author and a block either way close it, as the note's page), and so does its parent reply when it
 * has one. Two primary-key lookups per reply; deeper ancestors are not walked (a hidden reply's
 * own replies are closed by their parent, the rest of the thread stays).
 */
export function threadOpen(r: SQL, viewer: Viewer, { blocks = true } = {}): SQL {
  const note = sql`exists(select 1 from notes tn where tn.id = ${r}.note_id and ${openable(sql`tn`, viewer, { blocks })})`;
  const parent = sql`(${r}.parent_reply_id is null or exists(select 1 from replies tp where tp.id = ${r}.parent_reply_id and ${openable(sql`tp`, viewer, { blocks })}))`;
  return sql`(${note} and ${parent})`;
}

/** A reply opened by its address (its page, an interaction): openable, in an open thread. */
export function replyOpenable(r: SQL, viewer: Viewer, opts: { blocks?: boolean } = {}): SQL {
  return sql`(${openable(r, viewer, opts)} and ${threadOpen(r, viewer, opts)})`;
}

/**
 * A notification in its reader's list: its actor visible to the reader (not suspended, no block
 * either way) and the note or reply it is about still open to them, so hiding or suspending takes
 * the copied text and the name out of the list and restoring brings them back. A moderation notice
 * is about the reader's own content and always stays. `actor` names the actor's joined users row.
 */
export function noticeVisible(n: SQL, reader: Viewer, actor: SQL): SQL {
  const about = sql`(case ${n}.tblname
    when 'note' then exists(select 1 from notes nn where nn.id = ${n}.target_id and ${openable(sql`nn`, reader)})
    when 'reply' then exists(select 1 from replies nr where nr.id = ${n}.target_id and ${replyOpenable(sql`nr`, reader)})
    else 1 end)`;
  return sql`(substr(${n}.action, 1, 4) = 'mod_' or (${personVisible(sql`${n}.actor_id`, reader, { mute: false }, actor)} and ${about}))`;
}

/**
 * A person's own lists (followers, following) and profile: answered while the account exists and
 * is not suspended, or to a moderator.
 */
export function profileOpen(uid: unknown, viewer: Viewer): SQL {
  const staff = viewer === null ? sql`0` : isModerator(viewer);
  return sql`exists(select 1 from users pu where pu.id = ${uid} and (pu.suspended_at is null or ${staff}))`;
}

/** A user in a list of people (followers, following, search): active and not blocked either way. */
export function userInList(u: SQL, viewer: Viewer): SQL {
  return personVisible(sql`${u}.id`, viewer, { mute: false }, u);
}
