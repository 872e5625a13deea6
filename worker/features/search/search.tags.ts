import { sql } from "drizzle-orm";
import { bindPlan, namedObjects, planOf } from "../../db/plan";
import { known, type Read } from "../../db/reads";
import type { DB } from "../../env";
import { P } from "./search.common";

/** How many tags the search's Top view names. */
export const TAG_HITS = 6;

/** The tag a query could be ("#Hopper" → "hopper"): one word of letters and digits, else null. */
export function tagPrefix(q: string): string | null {
  const t = q.trim().replace(/^#+/, "").toLowerCase().slice(0, 50);
  return /^[\p{L}][\p{L}\p{N}]*$/u.test(t) ? t : null;
}

/**
 * Tags starting with the prefix, in order, as a walk that seeks the next distinct tag along
 * note_tags' (tag, …) index: TAG_HITS seeks whatever number of notes a popular tag holds (a
 * DISTINCT would read every note of each tag on the way).
 */
function tagsPlan(db: DB) {
  return planOf("search:tags", () => {
    const hi = sql`${P("lo")} || char(1114111)`;
    const walk = sql`with recursive t(tag, n) as (
      select (select min(tag) from note_tags where tag >= ${P("lo")} and tag < ${hi}), 1
      union all
      select (select min(tag) from note_tags where tag > t.tag and tag < ${hi}), n + 1 from t
      where t.tag is not null and n < ${sql.raw(String(TAG_HITS))}
    ) select tag from t where tag is not null`;
    return db.select({ tag: sql<string>`w.tag`.as("x_tag") }).from(sql`(${walk}) as w`);
  });
}

/** The tags a query names (none when it cannot be a tag). */
export function tagsRead(db: DB, q: string): Read<string[]> {
  const lo = tagPrefix(q);
  if (!lo) return known([]);
  const plan = tagsPlan(db);
  return {
    statements: [bindPlan(db, plan, { lo })],
    value: ([found]) => namedObjects<{ tag: string }>(plan, found.results).map((r) => r.tag),
  };
}
