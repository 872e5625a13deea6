// Accounts: the person's own (verify/update credentials), anyone's by id or handle, their
// relationships, and follow, block and mute through the same services as /v1.
import { type Context, Hono } from "hono";
import { and, getTableColumns, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { users } from "../../db/schema/users";
import type { AppEnv, DB } from "../../env";
import { findRemote } from "../federation/find";
import { AppError } from "../../lib/errors";
import { followAction } from "../follows/follow.action";
import { blockAction, muteAction } from "../safety/block.action";
import { domainBlockedBy } from "../safety/visibility";
import type { ActionContext } from "../federation/federate";
import { editProfile } from "../users/profile.action";
import { ProfileEdit } from "../users/users.schema";
import { checkImage, storeImage } from "./images";
import {
  acting,
  input,
  type MastoContext,
  type MastoEnv,
  notFoundError,
  originOf,
  queryOf,
  readable,
  scoped,
  viewer,
} from "./masto.http";
import { REMOTE_PROFILE } from "./columns";
import { account, credentialAccount } from "./serialise";

/** A whole `users` row and what an account shows beyond it (a remote person's page and fields). */
const ACCOUNT_SELECT = { ...getTableColumns(users), ...REMOTE_PROFILE };

/** An account id from a path: a positive integer, or the account does not exist (404, never a 500). */
export const accountId = (raw: string | undefined) => (raw && /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : 0);

/** Active (not suspended) accounts by id. */
export async function accountRows(db: DB, ids: number[]) {
  if (!ids.length) return [];
  return db
    .select(ACCOUNT_SELECT)
    .from(users)
    .where(and(inArray(users.id, ids.slice(0, 90)), isNull(users.suspendedAt)));
}

async function oneAccount(c: MastoContext, raw: string | undefined) {
  const id = accountId(raw);
  const [row] = id ? await accountRows(c.var.db, [id]) : [];
  if (!row) throw notFoundError();
  return row;
}

const HANDLE = /^@?([^@\s/?#]{1,100})(?:@([a-z0-9.-]{1,253}(?::\d{1,5})?))?$/i;

/**
 * The account an acct names: "name" or "name@this-host" is a person here; "name@other-host" one
 * from another server, stored when federation met them before, or — `resolve`, for a person's
 * token — found there now through the service behind GET /v1/users/{name@host} (WebFinger, then
 * the actor; each fetch times out, and a look-up there spends the person's search budget).
 */
export async function accountByAcct(c: MastoContext, acct: string, resolve: boolean) {
  const m = HANDLE.exec(acct.trim());
  if (!m) return null;
  const [, name, domain] = m;
  const local = !domain || domain.toLowerCase() === new URL(originOf(c)).host.toLowerCase();
  const username = local ? name : `${name}@${domain}`;
  const stored = () =>
    c.var.db
      .select(ACCOUNT_SELECT)
      .from(users)
      .where(and(sql`lower(${users.username}) = lower(${username})`, isNull(users.suspendedAt)))
      .limit(1);
  const [row] = await stored();
  if (row || local || !resolve || !c.var.user) return row ?? null;
  return remoteAccount(c, username);
}

/** A person on another server by handle or profile URL, looked up there (the search budget pays). */
export async function remoteAccount(c: MastoContext, query: string) {
  const id = await findRemote(c as unknown as Context<AppEnv>, query);
  const [row] = id ? await accountRows(c.var.db, [id]) : [];
  return row ?? null;
}

/** Mastodon's Relationship, for each of `ids` as the viewer sees them, in one statement. */
export async function relationships(db: DB, me: number, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db
    .select({
      id: users.id,
      following: sql<number>`exists(select 1 from follows f where f.follower_id = ${me} and f.followee_id = ${users.id})`,
      followedBy: sql<number>`exists(select 1 from follows f where f.follower_id = ${users.id} and f.followee_id = ${me})`,
      blocking: sql<number>`exists(select 1 from blocks b where b.blocker_id = ${me} and b.blocked_id = ${users.id})`,
      blockedBy: sql<number>`exists(select 1 from blocks b where b.blocker_id = ${users.id} and b.blocked_id = ${me})`,
      muting: sql<number>`exists(select 1 from mutes m where m.muter_id = ${me} and m.muted_id = ${users.id})`,
      requested: sql<number>`exists(select 1 from follow_requests r where r.follower_id = ${me} and r.followee_id = ${users.id})`,
      domainBlocking: sql<number>`${domainBlockedBy(me, users.id)}`,
    })
    .from(users)
    .where(and(inArray(users.id, ids.slice(0, 90)), isNull(users.suspendedAt)));
  return rows.map((r) => ({
    id: String(r.id),
    following: !!r.following,
    showing_reblogs: !!r.following,
    notifying: false,
    languages: null,
    followed_by: !!r.followedBy,
    blocking: !!r.blocking,
    blocked_by: !!r.blockedBy,
    muting: !!r.muting,
    muting_notifications: !!r.muting,
    requested: !!r.requested,
    requested_by: false,
    domain_blocking: !!r.domainBlocking,
    endorsed: false,
    note: "",
  }));
}

async function relationship(c: MastoContext, id: number) {
  const [rel] = await relationships(c.var.db, viewer(c).id, [id]);
  if (!rel) throw notFoundError();
  return rel;
}

const Ids = z.object({
  id: z
    .union([z.string(), z.array(z.string())])
    .default([])
    .transform((v) => (Array.isArray(v) ? v : [v]).map(accountId).filter(Boolean)),
});

const UpdateCredentials = z.object({
  display_name: z.string().optional(),
  note: z.string().optional(),
  // Files in a multipart body (Mastodon's only way to send them); an empty part means "unchanged".
  avatar: z.unknown().optional(),
  header: z.unknown().optional(),
});

/** A multipart file part that was really sent (apps send an empty string for "no new picture"). */
const sentFile = (v: unknown) => (v === undefined || v === "" ? undefined : v);

/** Follow, block or mute (and their undo) by path id: /v1's action, answered with the Relationship afterwards. */
const relation =
  (on: boolean, act: (ctx: ActionContext, me: number, uid: number, on: boolean) => Promise<unknown>) =>
  async (c: MastoContext) => {
    const id = accountId(c.req.param("id"));
    if (!id) throw notFoundError();
    await act(acting(c), viewer(c).id, id, on);
    return c.json(await relationship(c, id));
  };

export const accountRoutes = new Hono<MastoEnv>()
  .get("/api/v1/accounts/verify_credentials", scoped("profile"), async (c) => {
    const [row] = await accountRows(c.var.db, [viewer(c).id]);
    if (!row) throw notFoundError();
    return c.json(credentialAccount(row, originOf(c)));
  })
  .patch("/api/v1/accounts/update_credentials", scoped("write:accounts"), async (c) => {
    const me = viewer(c).id;
    const [current] = await accountRows(c.var.db, [me]);
    if (!current) throw notFoundError();
    const data = await input(c, UpdateCredentials);
    // The web's own rules and messages (users.schema ProfileEdit): name 1-99, description up to 299.
    const parsed = ProfileEdit.safeParse({
      name: data.display_name ?? current.fullname,
      descr: data.note ?? current.descr,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError(422, "invalid_input", `Validation failed: ${issue?.message ?? "invalid"}`);
    }
    // Both pictures are checked before either is stored: a bad one changes nothing.
    const avatar = sentFile(data.avatar);
    const header = sentFile(data.header);
    if (avatar !== undefined) await checkImage("avatar", avatar, "avatar");
    if (header !== undefined) await checkImage("header", header, "cover");
    const a = avatar !== undefined ? await storeImage(c, me, "avatar", avatar, "avatar") : null;
    const h = header !== undefined ? await storeImage(c, me, "header", header, "cover") : null;
    const fields = { name: parsed.data.name, descr: parsed.data.descr, avatar: a?.file_url, cover: h?.file_url };
    const row = await editProfile(acting(c), me, fields);
    return c.json(credentialAccount(row, originOf(c)));
  })
  .get("/api/v1/accounts/relationships", scoped("read:follows"), async (c) => {
    const { id } = await queryOf(c, Ids);
    return c.json(await relationships(c.var.db, viewer(c).id, id));
  })
  .get("/api/v1/accounts/lookup", readable("read:accounts"), async (c) => {
    const { acct } = await queryOf(c, z.object({ acct: z.string().max(300).default("") }));
    // A person on another server is looked up there when a person asks (Mastodon apps open a
    // remote profile this way); a visitor gets only the ones already known here.
    const row = await accountByAcct(c, acct, !!c.var.user);
    if (!row) throw notFoundError();
    return c.json(account(row, originOf(c)));
  })
  .get("/api/v1/accounts/:id", readable("read:accounts"), async (c) =>
    c.json(account(await oneAccount(c, c.req.param("id")), originOf(c))),
  )
  .post("/api/v1/accounts/:id/follow", scoped("write:follows"), relation(true, followAction))
  .post("/api/v1/accounts/:id/unfollow", scoped("write:follows"), relation(false, followAction))
  .post("/api/v1/accounts/:id/block", scoped("write:blocks"), relation(true, blockAction))
  .post("/api/v1/accounts/:id/unblock", scoped("write:blocks"), relation(false, blockAction))
  .post("/api/v1/accounts/:id/mute", scoped("write:mutes"), relation(true, muteAction))
  .post("/api/v1/accounts/:id/unmute", scoped("write:mutes"), relation(false, muteAction));
