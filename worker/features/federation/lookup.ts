// Finding a person on another server by handle (name@host): WebFinger, then their actor document,
// stored as a NoteX account (remote.ts). Fedify's lookupWebFinger always uses https, so under
// APP_ENV=local (two instances on loopback over plain http) the WebFinger request is made here; the
// actor is then read with Fedify's document loader. Outside local, both go through the outbound
// gate (lib/outbound.ts: https, ports 80/443, public addresses only, each redirect checked again),
// and every request times out.
import { isActor } from "@fedify/vocab";
import type { Env } from "../../env";
import { federationFor } from "./federation";
import { storeActor, storedActorId } from "./remote";
import { isBlockedHost } from "./domains";
import { fetchable } from "./handles";
import { guardedFetch, outboundFor } from "../../lib/outbound";

export { fetchable };

// The same time limit as every other fetch of another server (loaders.ts).
import { FETCH_TIMEOUT_MS } from "./loaders";
const HANDLE = /^@?([^@\s/?#]+)@([a-z0-9.-]+(?::\d+)?)$/i;
/** The NoteX id of the person behind `handle`, fetched and stored; null when it cannot be found. */
export async function resolveHandle(env: Env, siteOrigin: string, handle: string): Promise<number | null> {
  const m = HANDLE.exec(handle.trim());
  if (!m) return null;
  const [, name, host] = m;
  const scheme = env.APP_ENV === "local" ? "http" : "https";
  const finger = new URL(`${scheme}://${host}/.well-known/webfinger`);
  finger.searchParams.set("resource", `acct:${name}@${host}`);
  // Nothing is fetched from a server the moderators blocked: its people are not found.
  if (!fetchable(env, finger) || (await isBlockedHost(env.DB, host))) return null;
  const res = await guardedFetch(
    new Request(finger, { headers: { accept: "application/jrd+json" }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }),
    outboundFor(env),
  );
  if (!res.ok) return null;
  const jrd = (await res.json()) as { links?: { rel?: string; type?: string; href?: string }[] };
  const self = jrd.links?.find(
    (l) => l.rel === "self" && /application\/(activity\+json|ld\+json)/.test(l.type ?? "") && l.href,
  );
  return self?.href ? resolveActorUrl(env, siteOrigin, self.href) : null;
}

/** The NoteX id of the actor at `url` (an actor URI or a profile page that answers activity+json). */
export async function resolveActorUrl(env: Env, siteOrigin: string, url: string): Promise<number | null> {
  const target = URL.canParse(url) ? new URL(url) : null;
  if (!target || !fetchable(env, target) || (await isBlockedHost(env.DB, target.host))) return null;
  const federation = await federationFor(env);
  const ctx = federation.createContext(new URL(siteOrigin), { env });
  const actor = await ctx.lookupObject(target.href);
  if (!isActor(actor)) return null;
  const known = await storedActorId(env, actor.id);
  const uid = await storeActor(env, actor);
  // Found for the first time: their recent posts are read in by the consumer (backfill.ts).
  if (uid !== null && known === null)
    await env.FED_QUEUE?.send({ notex: "backfill", op: "create", uid, origin: siteOrigin }, { contentType: "json" });
  return uid;
}
