// Finding a person or a post on another server from a request (a profile look-up, Mastodon's search
// with resolve=true, "interact from your server"): the lookup (lookup.ts, which loads the
// federation) is imported only when a fetch is needed. Apart from federate.ts, which every action
// imports and the inbox runs, so the federation never loads itself through an action.
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { spendSearch } from "../../lib/ratelimit";
import { siteOriginOf } from "./context";

/**
 * GET /v1/users/{name@host} (or a profile URL): the person is looked up on their server the first
 * time (WebFinger, then the actor), stored, and from then on answered like any account. Answers
 * their NoteX id, or null when they cannot be found (the route's ordinary 404).
 */
export async function findRemote(c: Context<AppEnv>, query: string): Promise<number | null> {
  const q = query.trim().replace(/^@/, "");
  const url = /^https?:\/\//i.test(q);
  const known = await c.env.DB.prepare(
    url
      ? // By actor URI (indexed); a profile page's URL is resolved again (bounded by the search budget).
        "select user_id as id from remote_actors where uri = ?1"
      : "select id from users where lower(username) = lower(?1)",
  )
    .bind(q)
    .first<{ id: number }>();
  if (known) return known.id;
  // Asking another server costs as much as a search: the same budget.
  await spendSearch(c);
  const { resolveActorUrl, resolveHandle } = await import("./lookup");
  const origin = siteOriginOf(c.env, c.req.url);
  try {
    return await (url ? resolveActorUrl(c.env, origin, q) : resolveHandle(c.env, origin, q));
  } catch (error) {
    // Their server is down, slow or answers nonsense: the person is simply not found (a 404).
    console.error(JSON.stringify({ t: "federation.lookup", query: q, error: String(error) }));
    return null;
  }
}

/**
 * A post named by URL (an ActivityPub id or a page, here or on another server), as a note or reply
 * here: Mastodon's search with resolve=true and "interact from your server" buttons open a pasted
 * post this way. A fetch elsewhere spends the search budget, as a person's look-up does.
 */
export async function findRemotePost(c: Context<AppEnv>, url: string) {
  const { resolvePostUrl } = await import("./lookup");
  const origin = siteOriginOf(c.env, c.req.url);
  if (new URL(url).origin !== new URL(origin).origin) await spendSearch(c);
  try {
    return await resolvePostUrl(c.env, origin, url);
  } catch (error) {
    // Their server is down, slow or answers nonsense: the post is simply not found.
    console.error(JSON.stringify({ t: "federation.lookup", query: url, error: String(error) }));
    return null;
  }
}
