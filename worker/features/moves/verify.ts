// Whether an account elsewhere (or here) names another as one of its former accounts: the one check
// both a move out and a received Move rest on (Mastodon: the target's alsoKnownAs must list the
// account that moves). Remote actors are read fresh, signed by the instance actor, never from the
// document cache: an alias added a minute ago must count, and a stale copy must not.
import type { Context } from "@fedify/fedify";
import { isActor } from "@fedify/vocab";
import { localSql } from "../users/locality";
import { type FedData, INSTANCE } from "../federation/context";
import { isBlockedHost } from "../federation/domains";
import { fetchable } from "../federation/handles";
import { storeActor } from "../federation/remote";

/**
 * The NoteX id of the account at `targetUri` when it lists `formerUri` among its aliases (a remote
 * one is stored afresh on the way); null when it does not, cannot be read, or is the same account.
 * `ctx`: the caller's federation context (the inbox's, or one the move out makes), so this module
 * never loads the federation that loads it.
 */
export async function verifiedTarget(ctx: Context<FedData>, targetUri: URL, formerUri: URL): Promise<number | null> {
  if (targetUri.href === formerUri.href) return null;
  const { env } = ctx.data;
  const own = ctx.parseUri(targetUri);
  if (own?.type === "actor") {
    if (!/^\d+$/.test(own.identifier)) return null;
    const row = await env.DB.prepare(
      `select u.id from users u join account_aliases a on a.user_id = u.id
       where u.id = ?1 and a.uri = ?2 and u.suspended_at is null and ${localSql("u.id")}`,
    )
      .bind(Number(own.identifier), formerUri.href)
      .first<{ id: number }>();
    return row?.id ?? null;
  }
  if (!fetchable(env, targetUri) || (await isBlockedHost(env.DB, targetUri.host))) return null;
  const documentLoader = await ctx.getDocumentLoader({ identifier: INSTANCE });
  const actor = await ctx.lookupObject(targetUri.href, { documentLoader }).catch(() => null);
  // The document must be the actor it was asked for (an object claiming another id is not believed).
  if (!isActor(actor) || actor.id?.href !== targetUri.href) return null;
  if (!actor.aliasIds.some((a) => a.href === formerUri.href)) return null;
  return storeActor(env, actor);
}
