// Issue 8: every counter column next to the rows it counts, as plain SQL. The services recount
// these inside the write's own db.batch; this module is the independent audit (and repair) used by
// `npm run recount` (scripts/recount.mjs, through wrangler) and by the API tests (through env.DB).
// Plain JS with JSDoc so Node runs it without a build step and TypeScript still checks its callers.

/**
 * A scalar counter: `table.column` must equal `actual`, a correlated subquery on `table`.
 * @typedef {{ name: string, table: string, column: string, actual: string }} ScalarCounter
 */
/**
 * A per-key count table (jslabel, jstype, folder x-labels): its rows must be exactly `actual`,
 * a grouped SELECT giving the key columns then n. Rows with n = 0 are not kept.
 * @typedef {{ name: string, table: string, keys: string[], actual: string }} TableCounter
 */
/** @typedef {ScalarCounter | TableCounter} Counter */

const FOLDER_KINDS = "('company', 'project', 'skill')";

// Issue 16: content a moderator hid leaves the counts that lead to lists (an author's notes and
// x-labels, an original's renotes, a parent's replies); likes, folder counts and follows keep
// counting it (a folder still holds it; hiding is reversible). A suspension changes no counter.

/** @type {Counter[]} */
export const COUNTERS = [
  {
    name: "notes.likenum",
    table: "notes",
    column: "likenum",
    actual: "(select count(*) from likes l where l.kind = 'note' and l.target_id = notes.id)",
  },
  {
    name: "notes.repnum",
    table: "notes",
    column: "repnum",
    actual:
      "(select count(*) from replies r where r.note_id = notes.id and r.parent_reply_id is null and r.hidden_at is null)",
  },
  {
    // Plain renotes and quotes both point at the original with renote_id.
    name: "notes.renum",
    table: "notes",
    column: "renum",
    actual: "(select count(*) from notes r where r.renote_id = notes.id and r.hidden_at is null)",
  },
  {
    name: "replies.likenum",
    table: "replies",
    column: "likenum",
    actual: "(select count(*) from likes l where l.kind = 'reply' and l.target_id = replies.id)",
  },
  {
    name: "replies.repnum",
    table: "replies",
    column: "repnum",
    actual: "(select count(*) from replies c where c.parent_reply_id = replies.id and c.hidden_at is null)",
  },
  {
    name: "folders.likenum",
    table: "folders",
    column: "likenum",
    actual: `(select count(*) from likes l where l.kind in ${FOLDER_KINDS} and l.target_id = folders.id)`,
  },
  {
    name: "folders.notenum",
    table: "folders",
    column: "notenum",
    actual: "(select count(*) from folder_notes fn where fn.folder_id = folders.id)",
  },
  {
    name: "folders.noted_at",
    table: "folders",
    column: "noted_at",
    actual: "(select coalesce(max(fn.note_created_at), 0) from folder_notes fn where fn.folder_id = folders.id)",
  },
  {
    name: "users.following_num",
    table: "users",
    column: "following_num",
    actual: "(select count(*) from follows f where f.follower_id = users.id)",
  },
  {
    name: "users.follower_num",
    table: "users",
    column: "follower_num",
    actual: "(select count(*) from follows f where f.followee_id = users.id)",
  },
  {
    // Plain renotes (kind 1) are not the user's notes; quotes are.
    name: "users.note_num",
    table: "users",
    column: "note_num",
    actual: "(select count(*) from notes n where n.user_id = users.id and n.kind != 1 and n.hidden_at is null)",
  },
  {
    name: "users.noti_num",
    table: "users",
    column: "noti_num",
    actual: "(select count(*) from notifications n where n.user_id = users.id and n.id > users.noti_seen)",
  },
  {
    name: "user_labels.n",
    table: "user_labels",
    keys: ["user_id", "label"],
    actual:
      "select user_id, label, count(*) from notes where kind != 1 and label != '' and hidden_at is null group by user_id, label",
  },
  {
    name: "user_types.n",
    table: "user_types",
    keys: ["user_id", "type"],
    actual: "select user_id, type, count(*) from folders group by user_id, type",
  },
  {
    name: "folder_labels.n",
    table: "folder_labels",
    keys: ["folder_id", "label"],
    actual: "select folder_id, label, count(*) from folder_notes where label != '' group by folder_id, label",
  },
];

/** @param {Counter} c @returns {c is TableCounter} */
const isTable = (c) => "keys" in c;

/** One SELECT counting the rows in which `c` is wrong (a missing or extra count row is one too). */
function mismatches(/** @type {Counter} */ c) {
  if (!isTable(c)) return `(select count(*) from ${c.table} where ${c.column} != ${c.actual})`;
  const keys = c.keys.join(", ");
  const stored = `select ${keys}, n from ${c.table}`;
  // Keys whose row is wrong, missing or extra, each counted once.
  return `(select count(*) from (select ${keys} from (${stored} except ${c.actual}) union select ${keys} from (${c.actual} except ${stored})))`;
}

/**
 * One SELECT answering one row with a column per counter: how many rows disagree with what they
 * count. (One row, not a UNION per counter: D1 caps the terms of a compound SELECT.)
 */
export const CHECK_SQL = `select ${COUNTERS.map((c) => `${mismatches(c)} as "${c.name}"`).join(",\n")}`;

/** The counters the CHECK_SQL row says are wrong, with how many rows each. */
export const wrongIn = (/** @type {Record<string, unknown>} */ row) =>
  COUNTERS.filter((c) => Number(row[c.name]) > 0).map((c) => ({ counter: c, n: Number(row[c.name]) }));

/** Statements that make `c` exact again, touching only the rows that are wrong. */
export function repairStatements(/** @type {Counter} */ c) {
  if (!isTable(c)) return [`update ${c.table} set ${c.column} = ${c.actual} where ${c.column} != ${c.actual}`];
  const cols = [...c.keys, "n"].join(", ");
  return [
    `delete from ${c.table} where (${cols}) not in (${c.actual})`,
    `insert into ${c.table} (${cols}) select * from (${c.actual}) where true on conflict (${c.keys.join(", ")}) do update set n = excluded.n where n != excluded.n`,
  ];
}

/**
 * Checks every counter and repairs the wrong ones; `query` runs one SELECT and answers its rows,
 * `exec` runs statements in order. Answers what was fixed, and throws if a repair did not hold.
 * @param {(sql: string) => Promise<Record<string, unknown>>} query
 * @param {(sqls: string[]) => Promise<unknown>} exec
 * @returns {Promise<{ counter: string, fixed: number }[]>}
 */
export async function recount(query, exec) {
  const wrong = wrongIn(await query(CHECK_SQL));
  if (!wrong.length) return [];
  await exec(wrong.flatMap((w) => repairStatements(w.counter)));
  const still = wrongIn(await query(CHECK_SQL));
  if (still.length)
    throw new Error(`counters still wrong after repair: ${still.map((w) => w.counter.name).join(", ")}`);
  return wrong.map((w) => ({ counter: w.counter.name, fixed: w.n }));
}
