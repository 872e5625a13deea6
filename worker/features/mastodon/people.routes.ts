// Lists of people (followers, following, blocks, mutes, follow requests), account and v2 search,
// and reports: NoteX's services, answered as Mastodon accounts, statuses and a Report.
import { Hono } from "hono";
import { and, desc, eq, getTableColumns, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { bindPlan, namedObjects, planFrom } from "../../db/plan";
import { pairOf, type Read, readOne } from "../../db/reads";
import { notes } from "../../db/schema/notes";
import { likes } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import { AppError } from "../../lib/errors";
import { listFollows } from "../follows/follows.service";
import { type REPORT_KINDS, REPORT_NOTE_MAX } from "../reports/reports.constants";
import { reportAction } from "../reports/report.action";
import { listOf } from "../safety/safety.service";
import { decodeCursor, pageOf } from "../../lib/paging";
import { RENOTE } from "../notes/notes.constants";
import { searchLimit } from "../../lib/ratelimit";
import { accountId, accountRows } from "./accounts.routes";
import {
  input,
  limitOf,
  type MastoContext,
  type MastoEnv,
  notFoundError,
  queryOf,
  readable,
  scoped,
  setLink,
  viewer,
  viewerId,
  acting,
  originOf,
} from "./masto.http";
import { ACCOUNT_COLUMNS, accountRowOf } from "./columns";
import { searchAll } from "./search";
import { account, type StatusRef, statusRef } from "./serialise";
import { bool } from "./compose.service";
import { notFoundStatus, refsRead, refsWhere, statusesOf } from "./statuses.service";

type UserRow = typeof users.$inferSelect;

const opaque = (raw: unknown) => (typeof raw === "string" && /^[\w-]{1,200}$/.test(raw) ? raw : undefined);
const Cursor = z.object({ max_id: z.string().max(300).optional() });

/** People by id as accounts, in the order given (suspended ones left out), with the Link to the next page. */
async function people(c: MastoContext, list: { users: { id: number }[]; cursor: string | null }) {
  const rows = await accountRows(
    c.var.db,
    list.users.map((u) => u.id),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  setLink(c, list.cursor, null);
  return c.json(list.users.flatMap((u) => (byId.has(u.id) ? [account(byId.get(u.id)!, originOf(c))] : [])));
}

/**
 * An account's followers or following in one round trip: the list's own read answers whether the
 * owner is there (a 404 otherwise) and reads each person's account columns on their row.
 */
const follows = (which: "followers" | "following") => async (c: MastoContext) => {
  const id = accountId(c.req.param("id"));
  if (!id) throw notFoundError();
  const { max_id } = await queryOf(c, Cursor);
  const size = limitOf(c, "accounts");
  const q = { page: 1, cursor: opaque(max_id) };
  const list = await listFollows(c.var.db, id, which, q, viewerId(c) ?? 0, size, ACCOUNT_COLUMNS);
  setLink(c, list.cursor, null);
  return c.json(list.users.map((u) => account(accountRowOf(u, u), originOf(c))));
};

const relationList = (which: "blocks" | "mutes") => async (c: MastoContext) => {
  const { max_id } = await queryOf(c, Cursor);
  const size = limitOf(c, "accounts");
  return people(c, await listOf(c.var.db, which, viewer(c).id, { page: 1, cursor: opaque(max_id) }, size));
};

/** People rows of a select (users' columns and a sort key `x_at`), for a batch. */
function peopleRead(c: MastoContext, query: Parameters<typeof planFrom>[0]): Read<(UserRow & { at: number })[]> {
  const plan = planFrom(query);
  return {
    statements: [bindPlan(c.var.db, plan, {})],
    value: ([r]) => namedObjects(plan, r.results),
  };
}

/**
 * The accounts behind a status's likes or renotes, newest first, a page of `limit` below max_id:
 * likes along (kind, target_id, created_at, user_id) with an opaque cursor, renotes along
 * (renote_id, id) with the renote's id. One round trip: the status itself is read in the same
 * batch, and a status the viewer may not open is a 404 from its (absent) row.
 */
async function peopleWho(c: MastoContext, which: "liked" | "renoted") {
  const ref = statusRef(c.req.param("id"));
  if (!ref) throw notFoundStatus();
  const db = c.var.db;
  const status = refsRead(db, originOf(c), viewerId(c), refsWhere([ref]));
  const size = limitOf(c, "accounts");
  const maxId = new URL(c.req.url).searchParams.get("max_id") ?? undefined;
  const open = sql`${users.suspendedAt} is null`;
  const opened = (found: Map<string, unknown>) => {
    if (!found.has(`${ref.kind}:${ref.id}`)) throw notFoundStatus();
  };
  if (which === "renoted" && ref.kind === "reply") {
    opened(await readOne(db, status));
    return c.json([]);
  }
  if (which === "liked") {
    const after = decodeCursor(maxId && /^[\w-]{1,200}$/.test(maxId) ? maxId : undefined);
    const likers = db
      .select({ ...getTableColumns(users), at: sql<number>`${likes.createdAt}`.as("x_at") })
      .from(likes)
      .innerJoin(users, eq(users.id, likes.userId))
      .where(
        and(
          eq(likes.kind, ref.kind),
          eq(likes.targetId, ref.id),
          open,
          after ? sql`(${likes.createdAt}, ${likes.userId}) < (${after.at}, ${after.id})` : undefined,
        ),
      )
      .orderBy(desc(likes.createdAt), desc(likes.userId))
      .limit(size + 1);
    const [found, rows] = await readOne(db, pairOf(status, peopleRead(c, likers)));
    opened(found);
    const page = pageOf(rows, 1, (r) => ({ at: r.at, id: r.id }), size);
    setLink(c, page.cursor, null);
    return c.json(page.items.map((r) => account(r, originOf(c))));
  }
  const below = maxId && /^[1-9]\d{0,15}$/.test(maxId) ? Number(maxId) : null;
  const renoters = db
    .select({ ...getTableColumns(users), at: sql<number>`${notes.id}`.as("x_at") })
    .from(notes)
    .innerJoin(users, eq(users.id, notes.userId))
    .where(and(eq(notes.renoteId, ref.id), eq(notes.kind, RENOTE), open, below ? lt(notes.id, below) : undefined))
    .orderBy(desc(notes.id))
    .limit(size + 1);
  const [found, rows] = await readOne(db, pairOf(status, peopleRead(c, renoters)));
  opened(found);
  const items = rows.slice(0, size);
  setLink(c, rows.length > size ? String(items.at(-1)?.at) : null, null);
  return c.json(items.map((r) => account(r, originOf(c))));
}

const ReportInput = z.object({
  account_id: z.union([z.string(), z.number()]).transform(String),
  status_ids: z
    .union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)])),
  comment: z.string().max(1000).optional(),
  category: z.string().max(30).optional(),
  forward: bool.optional(),
  rule_ids: z.unknown().optional(),
});

/** Mastodon's categories as NoteX's report reasons (spec 3). */
const REASON: Record<string, keyof typeof REPORT_KINDS> = { spam: 1, legal: 4, violation: 3, other: 5 };

export const peopleRoutes = new Hono<MastoEnv>()
  .get("/api/v1/accounts/:id/followers", readable("read:accounts"), follows("followers"))
  .get("/api/v1/accounts/:id/following", readable("read:accounts"), follows("following"))
  .get("/api/v1/blocks", scoped("read:blocks"), relationList("blocks"))
  .get("/api/v1/mutes", scoped("read:mutes"), relationList("mutes"))
  // NoteX has no locked accounts: nobody ever asks to follow.
  .get("/api/v1/statuses/:id/favourited_by", readable("read:accounts"), (c) => peopleWho(c, "liked"))
  .get("/api/v1/statuses/:id/reblogged_by", readable("read:accounts"), (c) => peopleWho(c, "renoted"))
  .get("/api/v1/follow_requests", scoped("read:follows"), (c) => c.json([]))
  // Search spends the same per-person (or per-address) budget as the web's.
  .get("/api/v1/accounts/search", readable("read:accounts"), searchLimit, async (c) =>
    c.json((await searchAll(c, "accounts")).accounts),
  )
  .get("/api/v2/search", readable("read:search"), searchLimit, async (c) => c.json(await searchAll(c)))
  .post("/api/v1/reports", scoped("write:reports"), async (c) => {
    const data = await input(c, ReportInput);
    const me = viewer(c).id;
    const target = accountId(data.account_id);
    const [owner] = target ? await accountRows(c.var.db, [target]) : [];
    if (!owner) throw notFoundError();
    const refs = data.status_ids.map(statusRef).filter((r): r is StatusRef => !!r);
    // NoteX reports content, not people: a report names at least one of the account's statuses.
    if (!refs.length)
      throw new AppError(
        422,
        "invalid_input",
        "Validation failed: NoteX reports are about a status: name one in status_ids.",
      );
    const shown = await statusesOf(c.var.db, originOf(c), me, refs);
    if (shown.length !== refs.length || shown.some((s) => (s.account as { id: string }).id !== String(target)))
      throw notFoundError();
    const reason = REASON[data.category ?? "other"] ?? 5;
    const note = (data.comment ?? "").slice(0, REPORT_NOTE_MAX);
    const done = await reportAction(acting(c), me, refs, reason, { note, forward: data.forward });
    return c.json({
      id: `${me}-${Date.now()}`,
      action_taken: false,
      action_taken_at: null,
      category: data.category ?? "other",
      comment: data.comment ?? "",
      forwarded: done.forwarded,
      created_at: new Date().toISOString(),
      status_ids: shown.map((s) => s.id),
      rule_ids: [],
      target_account: account(owner, originOf(c)),
    });
  });
