// A person's portfolio as one read: their public record and their x-folders in a CV's order, in a
// single statement (the folders ride along as one JSON array), so /{username}/resume.json, the CV
// page and the export each cost one D1 round trip.
import { sql } from "drizzle-orm";
import { bindPlan, namedObjects, planFrom } from "../../db/plan";
import type { Read } from "../../db/reads";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { notFound } from "../../lib/errors";
import { isLocal } from "../users/locality";

/** A CV is a person's career, not their archive: more x-folders than this are left off it. */
export const CV_FOLDERS = 500;

export interface PortfolioFolder {
  type: string;
  name: string;
  slug: string;
  descr: string;
  link: string;
  role: string;
  start: string;
  end: string;
}

export interface Portfolio {
  username: string;
  fullname: string;
  descr: string;
  avatar: string;
  folders: PortfolioFolder[];
}

// Ongoing first, then the latest ended, then the latest started; undated ones last (as the
// profile's CV view orders them).
const FOLDERS = sql.raw(`(select json_group_array(json_object('type', f.type, 'name', f.name, 'slug', f.slug,
  'descr', f.descr, 'link', f.link, 'role', f.role, 'start', f.start_month, 'end', f.end_month))
  from (select * from folders f where f.user_id = "users"."id"
    order by (f.start_month != '' and f.end_month = '') desc, f.end_month desc, f.start_month desc,
      f.noted_at desc, f.id desc
    limit ${CV_FOLDERS}) f)`);

/**
 * The portfolio of the local, active person named `username` (any case), or a 404: a suspended
 * account or someone on another server has none here. By `id`: the owner's own (their export),
 * whatever the account's state.
 */
export function portfolioRead(db: DB, who: { username: string } | { id: number }): Read<Portfolio> {
  const plan = planFrom(
    db
      .select({
        username: users.username,
        fullname: users.fullname,
        descr: users.descr,
        avatar: users.avatar,
        folders: sql<string>`${FOLDERS}`.as("x_folders"),
      })
      .from(users)
      .where(
        "id" in who
          ? sql`${users.id} = ${who.id}`
          : sql`lower(${users.username}) = lower(${who.username}) and ${users.suspendedAt} is null and ${isLocal(users.id)}`,
      )
      .limit(1),
  );
  return {
    statements: [bindPlan(db, plan, {})],
    value: ([r]) => {
      const [row] = namedObjects<Omit<Portfolio, "folders"> & { folders: string }>(plan, r.results);
      if (!row) throw notFound("User not found");
      return { ...row, folders: JSON.parse(row.folders || "[]") as PortfolioFolder[] };
    },
  };
}
