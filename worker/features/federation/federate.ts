// The request side of outbound federation: one small message on the queue, awaited (a send left
// pending is lost when the isolate ends), whatever the number of followers. Fedify is not loaded
// here; the consumer builds and delivers the activities. Without a FED_QUEUE binding it does nothing.
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { spendSearch } from "../../lib/ratelimit";
import { mapTextOutsideLinks } from "../../lib/sanitize";
import { REMOTE_MENTION } from "../mentions/mentions.constants";
import { type OutEvent, siteOriginOf } from "./context";

export async function federate(c: Context<AppEnv>, event: OutEvent): Promise<void> {
  const queue = c.env.FED_QUEUE;
  if (!queue) return;
  await queue.send({ ...event, origin: siteOriginOf(c.env, c.req.url) }, { contentType: "json" });
}

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

/** At most this many people elsewhere are looked up while a note or reply is saved. */
export const MAX_MENTION_LOOKUPS = 3;

/**
 * Before a note or reply is saved: the @name@host handles in its text that are not stored yet are
 * found on their servers (at most MAX_MENTION_LOOKUPS, side by side, each within the federation
 * fetch timeout), so the save links them (mentions.service.ts) and the consumer delivers to them.
 * A handle that cannot be found stays text.
 */
export async function resolveMentions(c: Context<AppEnv>, html: string): Promise<void> {
  const handles = new Set<string>();
  mapTextOutsideLinks(html, (text) => {
    for (const m of text.matchAll(REMOTE_MENTION)) handles.add(m[2].toLowerCase());
    return text;
  });
  if (!handles.size) return;
  const list = [...handles].slice(0, 50);
  const known = await c.env.DB.prepare(
    `select lower(username) as name from users where lower(username) in (${list.map(() => "?").join(", ")})`,
  )
    .bind(...list)
    .all<{ name: string }>();
  const have = new Set(known.results.map((r) => r.name));
  const missing = list.filter((h) => !have.has(h)).slice(0, MAX_MENTION_LOOKUPS);
  if (!missing.length) return;
  const { resolveHandle } = await import("./lookup");
  const origin = siteOriginOf(c.env, c.req.url);
  await Promise.all(
    missing.map((h) =>
      resolveHandle(c.env, origin, h).catch((error) => {
        console.error(JSON.stringify({ t: "federation.mention", handle: h, error: String(error) }));
        return null;
      }),
    ),
  );
}
