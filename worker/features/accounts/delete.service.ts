// DELETE /v1/users (issue 17 item 6). Removes the person's rows and images and corrects every counter
// they moved on other people's content. Work goes in chunks of the person's own rows: each chunk is
// one db.batch that decrements exactly the counters its rows moved (likenum - 1 per like, and so on)
// and deletes those rows, so a chunk is all or nothing and a retried deletion never counts twice.
// Chunks are chosen by subqueries (`... where user_id = ? limit N`), never by bound id lists, so no
// statement comes near D1's 100-parameter limit. No count(*) recount of anyone's totals.
import { eq, getTableName, type SQL, sql } from "drizzle-orm";
import { users } from "../../db/schema/users";
import { deletedAccounts } from "../../db/schema/federation";
import { endAllSessions } from "../../lib/sessions";
import type { DB, Env } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { verifyPassword } from "../../lib/password";
import { bindingOf } from "../../db/plan";
import { batchNamed } from "../../db/reads";
import { ROW_KINDS } from "../interactions/counted";
import { MARKS } from "../interactions/kinds";
import { keepFarewell } from "../federation/farewell";
import { isLocal } from "../users/locality";

const CHUNK = 500;
/** Replies are taken fewer at a time: each brings its whole subtree (others' answers under it). */
const REPLY_CHUNK = 100;
/** A safety stop: 2,000 rounds of 500 rows is a million rows of one kind. */
const MAX_ROUNDS = 2000;

const gone = () =>
  new AppError(401, "bad_password", "The password is not correct.", { password: "The password is not correct." });

/** Checks the password, or for an account without one (Google only) the typed username. */
export async function checkDeletion(db: DB, uid: number, body: { password?: string; username?: string }) {
  const [u] = await db
    .select({ username: users.username, hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, uid));
  if (!u) throw notFound("User not found");
  if (u.hash) {
    if (!(await verifyPassword(body.password ?? "", u.hash))) throw gone();
    return;
  }
  if ((body.username ?? "").trim().toLowerCase() !== u.username.toLowerCase()) {
    throw new AppError(422, "invalid_input", "Type your username to confirm.", {
      username: "Type your username to confirm.",
    });
  }
}

/** A drizzle SQL fragment as a D1 statement (these statements are plain SQL: no query builder). */
function statement(db: DB, query: SQL): D1PreparedStatement {
  const { sql: text, params } = (
    db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } }
  ).dialect.sqlToQuery(query);
  return bindingOf(db)
    .prepare(text)
    .bind(...params);
}

/**
 * Runs a chunk's batch (the statements that go `before` it, then the delete that `drives` it)
 * until that delete removes fewer than `size`.
 */
async function rounds(db: DB, size: number, chunk: () => { before?: SQL[]; drives: SQL }) {
  for (let i = 0; i < MAX_ROUNDS; i++) {
    const { before = [], drives } = chunk();
    const done = await batchNamed(bindingOf(db), {
      ...Object.fromEntries(before.map((q, n) => [`before${n}`, statement(db, q)])),
      drives: statement(db, drives),
    });
    if ((done.drives.meta?.changes ?? 0) < size) return;
  }
  throw new Error("account deletion did not finish");
}

/**
 * Deletes the rows of `table` that `where` picks, a chunk at a time (no counters involved). `key`
 * is a unique column (`_rowid_`: SQLite's own row id, under any name the table gives its columns).
 */
const drain = (db: DB, table: string, key: string, where: SQL) =>
  rounds(db, 1000, () => ({
    drives: sql`delete from ${sql.raw(table)} where ${sql.raw(key)} in (select ${sql.raw(key)} from ${sql.raw(table)} where ${where} limit 1000)`,
  }));

export async function deleteAccount(env: Env, db: DB, uid: number) {
  const U = sql`${uid}`;
  // Every session and token ends first: nothing the person does can race the deletion.
  await endAllSessions(env, uid);
  // A local account's keys and the servers that know it are kept for its Delete(Person), which the
  // queue sends once the rows are gone (federation/farewell.ts).
  await keepFarewell(bindingOf(db), uid);

  // 1. Their notes, with everything hanging on them: replies (anyone's), plain renotes of them, and
  //    (by foreign keys) the likes, bookmarks, reports and notifications about the notes and replies.
  //    Originals they renoted or quoted lose one renum each, but for a quote a moderator hid: its
  //    hiding already took it out of the count.
  const N = sql`(select id from notes where user_id = ${U} order by id limit ${CHUNK})`;
  await rounds(db, CHUNK, () => ({
    before: [
      sql`update notes set renum = renum - (select count(*) from notes q where q.renote_id = notes.id and q.id in ${N} and q.hidden_at is null) where id in (select renote_id from notes where id in ${N} and renote_id is not null)`,
      sql`delete from notes where kind = 1 and renote_id in ${N} and user_id != ${U}`,
      sql`delete from note_versions where note_id in ${N}`,
    ],
    drives: sql`delete from notes where id in ${N}`,
  }));

  // 2. Their replies on other people's notes, each with its subtree (a thread reads as if the reply
  //    had been deleted). The note or reply each subtree hangs from loses one repnum per root that
  //    a moderator has not hidden (hiding took that one out already).
  const S = sql`with recursive s(id) as (select id from (select id from replies where user_id = ${U} order by id limit ${REPLY_CHUNK}) union select r.id from replies r join s on r.parent_reply_id = s.id)`;
  await rounds(db, 1, () => ({
    before: [
      sql`${S} update notes set repnum = repnum - (select count(*) from replies r where r.note_id = notes.id and r.parent_reply_id is null and r.id in s and r.hidden_at is null) where id in (select note_id from replies where id in s and parent_reply_id is null)`,
      sql`${S} update replies set repnum = repnum - (select count(*) from replies c where c.parent_reply_id = replies.id and c.id in s and c.hidden_at is null) where id in (select parent_reply_id from replies where id in s) and id not in s`,
    ],
    drives: sql`${S} delete from replies where id in s`,
  }));

  // 3. Their x-folders (others' likes, bookmarks and reports of them go by foreign keys).
  const F = sql`(select id from folders where user_id = ${U} order by id limit ${CHUNK})`;
  await rounds(db, CHUNK, () => ({ drives: sql`delete from folders where id in ${F}` }));

  // 4. Their likes and every other counted interaction with a table of its own: each note, reply
  //    or folder loses exactly one per row (the table's *_count_out trigger). Renotes went with
  //    their notes (step 1).
  for (const k of ROW_KINDS) await drain(db, k.rows, "_rowid_", sql`user_id = ${U}`);

  // 5. Follows both ways: each person they followed loses a follower, each follower a following.
  const OUT = sql`(select followee_id from follows where follower_id = ${U} order by followee_id limit ${CHUNK})`;
  await rounds(db, CHUNK, () => ({
    before: [sql`update users set follower_num = follower_num - 1 where id in ${OUT}`],
    drives: sql`delete from follows where follower_id = ${U} and followee_id in ${OUT}`,
  }));
  const IN = sql`(select follower_id from follows where followee_id = ${U} order by created_at, follower_id limit ${CHUNK})`;
  await rounds(db, CHUNK, () => ({
    before: [sql`update users set following_num = following_num - 1 where id in ${IN}`],
    drives: sql`delete from follows where followee_id = ${U} and follower_id in ${IN}`,
  }));

  // 6. Notifications they caused (each recipient's badge follows the rows: the notifications_unread_* triggers).
  await drain(db, "notifications", "id", sql`actor_id = ${U}`);

  // 7. Their remaining rows, which move no one else's counters.
  await drain(db, "notifications", "id", sql`user_id = ${U}`);
  for (const k of MARKS) await drain(db, getTableName(k.table), "_rowid_", sql`user_id = ${U}`);
  await drain(db, "reports", "id", sql`user_id = ${U}`);
  await drain(db, "uploads", "key", sql`user_id = ${U}`);
  // Blocks and mutes both ways (issue 16): a spammer blocked by thousands is drained in chunks
  // rather than cascaded in one statement. They move no counter. The moderation log is kept: it
  // is the audit record (by ids, with no foreign key), and reads "deleted account" from now on.
  await drain(db, "blocks", "_rowid_", sql`blocker_id = ${U} or blocked_id = ${U}`);
  await drain(db, "mutes", "_rowid_", sql`muter_id = ${U} or muted_id = ${U}`);

  // 8. Their images in R2 (every object under their prefix), then the account itself: the
  //    username and email are free again, and what is left (counts, tokens) cascades.
  let cursor: string | undefined;
  do {
    const listed = await env.IMAGES.list({ prefix: `u/${uid}/`, cursor, limit: 1000 });
    if (listed.objects.length) await env.IMAGES.delete(listed.objects.map((o) => o.key));
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  //    A local account leaves its id behind, so its actor answers 410 Gone to other servers.
  await bindingOf(db).batch([
    statement(
      db,
      sql`insert into ${deletedAccounts} (id, deleted_at) select ${U}, ${Date.now()}
          where ${isLocal(U)} on conflict do nothing`,
    ),
    statement(db, sql`delete from ${users} where id = ${U}`),
  ]);
}
