// The request side of the live streams: one call to the author's publisher hub, after the answer
// (waitUntil), whatever the number of followers. The posting request itself makes no D1 trip for it.
import type { Context } from "hono";
import type { AppEnv, Env } from "../../env";
import { later } from "../../lib/later";
import { type OutEvent, type OutMessage, siteOriginOf } from "../federation/context";
import { publisherOf } from "./shards";

/** Streams what a write did to whoever is connected (nothing without the LIVE binding). */
export async function publishLive(c: Context<AppEnv>, event: OutEvent): Promise<void> {
  const env = c.env;
  if (!env.LIVE || !("uid" in event)) return;
  const msg = { ...event, origin: siteOriginOf(env, c.req.url) } as OutMessage;
  await later(c, "live", () => publishNow(env, msg));
}

/** The same from where there is no request (the inbox storing a remote post). */
export async function publishNow(env: Env, msg: OutMessage): Promise<void> {
  if (env.LIVE && "uid" in msg) await publisherOf(env, msg.uid).publish(msg);
}
