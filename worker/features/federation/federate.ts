// The request side of outbound federation: one small message on the queue, awaited (a send left
// pending is lost when the isolate ends), whatever the number of followers. Fedify is not loaded
// here; the consumer builds and delivers the activities. Without a FED_QUEUE binding it does nothing.
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { type OutEvent, siteOriginOf } from "./context";

export async function federate(c: Context<AppEnv>, event: OutEvent): Promise<void> {
  const queue = c.env.FED_QUEUE;
  if (!queue) return;
  await queue.send({ ...event, origin: siteOriginOf(c.env, c.req.url) }, { contentType: "json" });
}

/**
 * GET /v1/users/{name@host}: a handle with a server is looked up there the first time (WebFinger,
 * then the actor), stored, and from then on answered like any account. A handle that cannot be
 * resolved is left to the ordinary 404.
 */
export async function findRemote(c: Context<AppEnv>, handle: string): Promise<void> {
  const known = await c.env.DB.prepare("select 1 as x from users where lower(username) = lower(?)")
    .bind(handle)
    .first();
  if (known) return;
  const { resolveHandle } = await import("./lookup");
  try {
    await resolveHandle(c.env, siteOriginOf(c.env, c.req.url), handle);
  } catch (error) {
    // Their server is down, slow or answers nonsense: the person is simply not found (a 404).
    console.error(JSON.stringify({ t: "federation.lookup", handle, error: String(error) }));
  }
}
