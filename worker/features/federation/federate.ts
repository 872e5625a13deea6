// The request side of outbound federation: one small message on the queue, awaited (a send left
// pending is lost when the isolate ends), whatever the number of followers. Fedify is not loaded
// here; the consumer builds and delivers the activities. Without a FED_QUEUE binding it does nothing.
import type { Context } from "hono";
import type { AppEnv, DB, Env } from "../../env";
import { later } from "../../lib/later";
import { spendSearch } from "../../lib/ratelimit";
import { publishNow } from "../live/publish";
import { type OutEvent, type OutMessage, siteOriginOf } from "./context";

/**
 * What an action (`worker/features/<f>/*.action.ts`) needs from the door that runs it. Every door
 * hands one over — /v1 (and the pages, which call it in process), the Mastodon API, the inbox — so
 * what an action writes, notifies and delivers cannot differ by door.
 */
export interface ActionContext {
  db: DB;
  env: Env;
  /** The site's public origin, which activity ids are built from. */
  origin: string;
  /**
   * The act arrived from another server (the inbox): it is written and shown here as any other,
   * but never delivered again — its own server already told whom it meant to.
   */
  inbound: boolean;
  /** Work after the answer (a request's waitUntil; awaited where there is none). */
  after(what: string, work: () => Promise<unknown>): Promise<void>;
}

/** A request's action context (/v1 or the Mastodon API). */
export const actionOf = (c: Context<AppEnv>): ActionContext => ({
  db: c.var.db,
  env: c.env,
  origin: siteOriginOf(c.env, c.req.url),
  inbound: false,
  after: (what, work) => later(c, what, work),
});

/**
 * Tells the fediverse (one small queue message, awaited: a send left pending is lost when the
 * isolate ends) and whoever is connected here (features/live) what an action did. The live fan-out
 * starts last, after the request's last awaited call: nothing the answer waits for runs beside it.
 */
export async function deliver(ctx: ActionContext, event: OutEvent): Promise<void> {
  await tellServers(ctx, event);
  await stream(ctx, event);
}

/** Only to other servers (never for an act that came from one): an account's profile or its end. */
export async function tellServers(ctx: ActionContext, event: OutEvent): Promise<void> {
  if (!ctx.inbound) await ctx.env.FED_QUEUE?.send({ ...event, origin: ctx.origin }, { contentType: "json" });
}

/** Streams an action to whoever is connected here, and nowhere else. */
export async function stream(ctx: ActionContext, event: OutEvent): Promise<void> {
  if (ctx.env.LIVE && "uid" in event)
    await ctx.after("live", () => publishNow(ctx.env, { ...event, origin: ctx.origin } as OutMessage));
}

/** An act that only another server's post or person needs to hear of: streamed live here either way. */
export const deliverIf = (ctx: ActionContext, remote: boolean, event: OutEvent) =>
  remote ? deliver(ctx, event) : stream(ctx, event);

/** A route's delivery outside an action (the same as deliver). */
export const federate = (c: Context<AppEnv>, event: OutEvent) => deliver(actionOf(c), event);

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
