// Moving between accounts, as Mastodon's account migration: the new account names the old one as
// an alias (alsoKnownAs), then the old one moves (movedTo) and tells its followers' servers with a
// Move; each server checks the alias and moves its people's follows over. Here both ends: aliases
// and moving out for local accounts, and the follows of local people moved when an account they
// follow moves (out of here, or elsewhere: move-in.ts).
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { batchNamed } from "../../db/reads";
import { me } from "../../lib/session";
import { checkDeletion } from "../accounts/delete.service";
import { siteOriginOf } from "../federation/context";
import { localIdByName } from "../federation/data";
import { findRemote } from "../federation/find";
import { actorUri, moveState, type MoveState } from "./state";

/** A person may name this many former accounts (Mastodon allows a handful too). */
export const MAX_ALIASES = 5;

const HANDLE = /^@?[^@\s/]+@[^@\s/]+$/;

/** The account a typed handle names, looked up on its server if need be (the search budget's guard). */
async function accountOf(c: Context<AppEnv>, handle: string): Promise<{ id: number; uri: string; handle: string }> {
  const typed = handle.trim().replace(/^@/, "");
  if (!HANDLE.test(typed))
    throw new AppError(422, "invalid_input", "Enter the account's full address, like name@mastodon.social.", {
      handle: "Enter the account's full address, like name@mastodon.social.",
    });
  const origin = siteOriginOf(c.env, c.req.url);
  const [name, host] = typed.split("@");
  // An account here is named by its handle with this site's host: found without asking anyone.
  const id =
    host.toLowerCase() === new URL(origin).host.toLowerCase()
      ? await localIdByName(c.env.DB, name)
      : await findRemote(c, typed);
  if (id === null) throw notFound(`No account ${typed} could be found.`);
  const row = await c.env.DB.prepare(
    "select u.username, ra.uri from users u left join remote_actors ra on ra.user_id = u.id where u.id = ?",
  )
    .bind(id)
    .first<{ username: string; uri: string | null }>();
  if (!row) throw notFound(`No account ${typed} could be found.`);
  return {
    id,
    uri: row.uri ?? actorUri(origin, id),
    handle: row.uri ? row.username : `${row.username}@${new URL(origin).host}`,
  };
}

/** Names a former account: it must exist (looked up on its server) and not be this one. */
export async function addAlias(c: Context<AppEnv>, handle: string): Promise<MoveState> {
  const uid = me(c).id;
  const origin = siteOriginOf(c.env, c.req.url);
  const found = await accountOf(c, handle);
  if (found.id === uid)
    throw new AppError(422, "invalid_input", "That is this account.", { handle: "That is this account." });
  const { count } = await batchNamed(c.env.DB, {
    added: c.env.DB.prepare(
      `insert into account_aliases (user_id, uri, handle) select ?1, ?2, ?3
       where (select count(*) from account_aliases where user_id = ?1) < ?4 on conflict do nothing`,
    ).bind(uid, found.uri, found.handle, MAX_ALIASES),
    count: c.env.DB.prepare("select count(*) as n, max(uri = ?2) as mine from account_aliases where user_id = ?1").bind(
      uid,
      found.uri,
    ),
  });
  if (!(count.results[0] as { mine: number | null }).mine)
    throw new AppError(422, "too_many", `At most ${MAX_ALIASES} former accounts.`, {
      handle: `At most ${MAX_ALIASES} former accounts.`,
    });
  return moveState(c.env, origin, uid);
}

export async function removeAlias(c: Context<AppEnv>, uri: string): Promise<MoveState> {
  const uid = me(c).id;
  await c.env.DB.prepare("delete from account_aliases where user_id = ? and uri = ?").bind(uid, uri).run();
  return moveState(c.env, siteOriginOf(c.env, c.req.url), uid);
}

/**
 * Moves this account to `handle`, which must list it as an alias (checked on its server now). The
 * account is marked as moved in one write; the Move to every follower's server, and the moving of
 * followers here, happen in the queue. Confirmed with the password (or the username, for an
 * account without one), as deleting the account is: it cannot be undone from here.
 */
export async function moveOut(
  c: Context<AppEnv>,
  body: { handle: string; password?: string; username?: string },
): Promise<MoveState> {
  const uid = me(c).id;
  const origin = siteOriginOf(c.env, c.req.url);
  await checkDeletion(c.var.db, uid, body);
  const current = await moveState(c.env, origin, uid);
  if (current.moved_to)
    throw new AppError(409, "already_moved", `This account has already moved to ${current.moved_to.username}.`);
  const found = await accountOf(c, body.handle);
  if (found.id === uid)
    throw new AppError(422, "invalid_input", "That is this account.", { handle: "That is this account." });
  const [{ verifiedTarget }, { federationFor }] = await Promise.all([
    import("./verify"),
    import("../federation/federation"),
  ]);
  const ctx = (await federationFor(c.env)).createContext(new URL(origin), { env: c.env });
  const target = await verifiedTarget(ctx, new URL(found.uri), new URL(actorUri(origin, uid)));
  if (target === null) {
    const self = await c.env.DB.prepare("select username from users where id = ?")
      .bind(uid)
      .first<{ username: string }>();
    const message = `${found.handle} does not list this account as an alias yet. Add ${self?.username}@${new URL(origin).host} there first (Moving from another account), then try again.`;
    throw new AppError(422, "not_aliased", message, { handle: message });
  }
  await c.env.DB.prepare("insert into account_moves (user_id, target_id) values (?, ?) on conflict do nothing")
    .bind(uid, target)
    .run();
  await c.env.FED_QUEUE?.send({ notex: "move", op: "create", uid, target, origin }, { contentType: "json" });
  return moveState(c.env, origin, uid);
}
