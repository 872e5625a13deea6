// The request side of outbound federation: one small message on the queue, awaited (a send left
// pending is lost when the isolate ends), whatever the number of followers. Fedify is not loaded
// here; the consumer builds and delivers the activities. Without a FED_QUEUE binding it does nothing.
import type { Context } from "hono";
import type { AppEnv, DB, Env } from "../../env";
import { later } from "../../lib/later";
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
