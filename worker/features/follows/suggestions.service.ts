import { and, desc, gt, isNull, ne, sql } from "drizzle-orm";
import { bindPlan, namedObjects, planOf } from "../../db/plan";
import type { Read } from "../../db/reads";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { blockedEither } from "../safety/visibility";

/** A person as lists of people show them. */
export const PERSON_COLUMNS = {
  id: users.id,
  username: users.username,
  fullname: users.fullname,
  avatar: users.avatar,
  descr: users.descr,
};

export interface SuggestedPerson {
  id: number;
  username: string;
  fullname: string;
  avatar: string;
  descr: string;
  follower_num: number;
}

/** Who may be suggested to the placeholder `me`: shared by the web's list and Mastodon's. */
export const suggestable = () => {
  const viewer = sql.placeholder("me");
  return and(
    ne(users.id, viewer),
    isNull(users.suspendedAt),
    gt(users.noteNum, 0),
    sql`not exists(select 1 from follows f where f.follower_id = ${viewer} and f.followee_id = ${users.id})`,
    sql`not ${blockedEither(viewer, users.id)}`,
  );
};
export const SUGGESTION_ORDER = [desc(users.followerNum), desc(users.id)];

/**
 * People to follow for a newcomer: the most-followed active accounts (not suspended, with at least
 * one note) that `me` does not follow yet and that no block stands between. Read along the
 * users' follower index from the top, each candidate checked by primary keys, so it reads about as
 * many rows as the people `me` already follows among the top ones, plus `n` (never the whole table).
 */
export function suggestionsRead(db: DB, me: number, n = 3): Read<SuggestedPerson[]> {
  // Built once (every home page of a signed-in person reads it), then only bound.
  const plan = planOf("suggestions", () =>
    db
      .select({ ...PERSON_COLUMNS, follower_num: users.followerNum })
      .from(users)
      .where(suggestable())
      .orderBy(...SUGGESTION_ORDER)
      .limit(sql.placeholder("n")),
  );
  return {
    statements: [bindPlan(db, plan, { me, n })],
    value: ([r]) => namedObjects<SuggestedPerson>(plan, r.results),
  };
}
