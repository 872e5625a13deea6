// Every stored counter, with the rows it counts (issue 8 §8). The services keep counters exact by
// recounting in the same db.batch as the write; these statements check that from the outside and
// repair drift (e.g. after a manual edit). Plain SQL so `npm run recount` can run them through
// `wrangler d1 execute` and tests through the D1 binding. Each `check` answers one row: { n } = rows
// whose counter is wrong; `repair` makes them right.

const RENOTE = 1; // notes.kind of a plain renote (worker/features/notes/notes.service.ts)

export interface CounterCheck {
  name: string;
  check: string;
  repair: string[];
}

/** A counter column compared with a count expression, row by row. */
function column(table: string, col: string, count: string): CounterCheck {
  return {
    name: `${table}.${col}`,
    check: `select count(*) as n from ${table} t where t.${col} != (${count})`,
    repair: [`update ${table} as t set ${col} = (${count}) where t.${col} != (${count})`],
  };
}

/** A table of per-key counts (x-labels, folder types) compared with the grouped rows it summarises. */
function grouped(table: string, keys: string, source: string): CounterCheck {
  const wanted = `select ${keys}, count(*) as n ${source} group by ${keys}`;
  return {
    name: `${table}.n`,
    // Rows stored but not wanted, plus rows wanted but not stored (SQLite takes no parenthesised
    // compound members, hence the subquery on the right).
    check: `select count(*) as n from (select ${keys}, n from ${table} except ${wanted} union all select * from (${wanted} except select ${keys}, n from ${table}))`,
    repair: [`delete from ${table}`, `insert into ${table} (${keys}, n) ${wanted}`],
  };
}

export const COUNTERS: CounterCheck[] = [
  column("notes", "likenum", "select count(*) from likes l where l.kind = 'note' and l.target_id = t.id"),
  column("notes", "renum", "select count(*) from notes r where r.renote_id = t.id"),
  column("notes", "repnum", "select count(*) from replies r where r.parent = -t.id"),
  column("replies", "likenum", "select count(*) from likes l where l.kind = 'reply' and l.target_id = t.id"),
  column("replies", "repnum", "select count(*) from replies r where r.parent = t.id"),
  column(
    "folders",
    "likenum",
    "select count(*) from likes l where l.kind in ('company', 'project', 'skill') and l.target_id = t.id",
  ),
  column("folders", "notenum", "select count(*) from folder_notes fn where fn.folder_id = t.id"),
  column("users", "following_num", "select count(*) from follows f where f.follower_id = t.id"),
  column("users", "follower_num", "select count(*) from follows f where f.followee_id = t.id"),
  column("users", "note_num", `select count(*) from notes n where n.user_id = t.id and n.kind != ${RENOTE}`),
  column(
    "users",
    "noti_num",
    "select count(*) from notifications n where n.user_id = t.id and n.id > t.noti_seen and n.tblname != '_gone'",
  ),
  grouped("user_labels", "user_id, label", `from notes where kind != ${RENOTE} and label != ''`),
  grouped("user_types", "user_id, type", "from folders"),
  grouped("folder_labels", "folder_id, label", "from folder_notes where label != ''"),
];
