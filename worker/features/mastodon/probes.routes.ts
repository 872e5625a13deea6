// What apps ask for at start-up that NoteX has no feature for (filters, lists, announcements,
// conversations, scheduled posts, endorsements, featured and followed tags, trends): each answers
// what Mastodon answers on a server where the person has none of them, never a 404 that an app
// takes for a broken server. Suggestions are NoteX's own people to follow.
import { Hono } from "hono";
import { sql } from "drizzle-orm";
import { bindPlan, namedObjects, planOf } from "../../db/plan";
import { readOne } from "../../db/reads";
import { users } from "../../db/schema/users";
import { SUGGESTION_ORDER, suggestable } from "../follows/suggestions.service";
import { accountId, accountRows } from "./accounts.routes";
import {
  limitOf,
  type MastoContext,
  type MastoEnv,
  notFoundError,
  readable,
  scoped,
  viewer,
  originOf,
} from "./masto.http";
import { account, type AccountRow } from "./serialise";

const none = (c: MastoContext) => c.json([]);

/** NoteX has these only as Mastodon's defaults: every post public, media shown, no warnings. */
const PREFERENCES = {
  "posting:default:visibility": "public",
  "posting:default:sensitive": false,
  "posting:default:language": null,
  "reading:expand:media": "default",
  "reading:expand:spoilers": false,
};

/** The accounts NoteX suggests to the viewer (the web's "people to follow"), in one statement. */
async function suggested(c: MastoContext) {
  const db = c.var.db;
  const plan = planOf("masto:suggestions", () =>
    db
      .select()
      .from(users)
      .where(suggestable())
      .orderBy(...SUGGESTION_ORDER)
      .limit(sql.placeholder("n")),
  );
  const rows = await readOne(db, {
    statements: [bindPlan(db, plan, { me: viewer(c).id, n: limitOf(c, "accounts") })],
    value: ([r]) => namedObjects<AccountRow>(plan, r.results),
  });
  return rows.map((row) => account(row, originOf(c)));
}

/** An account's empty list of something, once the account is there (Mastodon's 404 otherwise). */
const ofAccount = async (c: MastoContext) => {
  const id = accountId(c.req.param("id"));
  const [row] = id ? await accountRows(c.var.db, [id]) : [];
  if (!row) throw notFoundError();
  return c.json([]);
};

export const probeRoutes = new Hono<MastoEnv>()
  .get("/api/v1/preferences", scoped("read:accounts"), (c) => c.json(PREFERENCES))
  .get("/api/v1/filters", scoped("read:filters"), none)
  .get("/api/v2/filters", scoped("read:filters"), none)
  .get("/api/v1/lists", scoped("read:lists"), none)
  .get("/api/v1/accounts/:id/lists", scoped("read:lists"), ofAccount)
  .get("/api/v1/accounts/:id/featured_tags", readable("read:accounts"), ofAccount)
  .get("/api/v1/followed_tags", scoped("read:follows"), none)
  .get("/api/v1/announcements", scoped("read"), none)
  .get("/api/v1/conversations", scoped("read:statuses"), none)
  .get("/api/v1/endorsements", scoped("read:accounts"), none)
  .get("/api/v1/featured_tags", scoped("read:accounts"), none)
  .get("/api/v1/scheduled_statuses", scoped("read:statuses"), none)
  // Trending tags would need a count over recent tag rows on every call: none are claimed.
  .get("/api/v1/trends/tags", readable("read"), none)
  .get("/api/v1/trends", readable("read"), none)
  .get("/api/v1/suggestions", scoped("read"), async (c) => c.json(await suggested(c)))
  .get("/api/v2/suggestions", scoped("read"), async (c) =>
    c.json((await suggested(c)).map((a) => ({ source: "global", sources: ["featured"], account: a }))),
  );
