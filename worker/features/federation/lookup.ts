// Finding a person on another server by handle (name@host): WebFinger, then their actor document,
// stored as a NoteX account (remote.ts). Fedify's lookupWebFinger always uses https, so under
// APP_ENV=local (two instances on loopback over plain http) the WebFinger request is made here; the
// actor is then read with Fedify's document loader. Outside local, both go through the outbound
// gate (lib/outbound.ts: https, ports 80/443, public addresses only, each redirect checked again),
// and every request times out. A handle or URL of this server's own origin is never fetched: it
// names a local account (so no "remote" copy of a person here is ever made).
import { isActor, Note } from "@fedify/vocab";
import type { Env } from "../../env";
import { guardedFetch, outboundFor } from "../../lib/outbound";
import { localIdByName, localUser } from "./data";
import { isBlockedHost } from "./domains";
import { federationFor } from "./federation";
import { fetchable, isRemoteUsername } from "./handles";
// The same time limit as every other fetch of another server (loaders.ts).
import { FETCH_TIMEOUT_MS } from "./loaders";
import { keepOlderNote } from "./receive";
import { storeActor, storedActorId } from "./remote";
import { instanceSender } from "./signed-fetch";
import { replyOfNumber } from "../../lib/ids";

export { fetchable };

const HANDLE = /^@?([^@\s/?#]+)@([a-z0-9.-]+(?::\d+)?)$/i;
/** This server's own pages and actors that name a person: /ap/users/{id}, /{name}, /@{name}. */
const OWN_PERSON = /^\/(?:ap\/users\/(\d+)|@?([^/@]+))\/?$/;

/** The local account an own URL names (an actor URI or a profile page), or null. */
async function ownAccount(env: Env, url: URL): Promise<number | null> {
  const m = OWN_PERSON.exec(url.pathname);
  if (!m) return null;
  if (m[1]) return (await localUser(env.DB, Number(m[1])))?.id ?? null;
  return localIdByName(env.DB, decodeURIComponent(m[2]));
}

/** The NoteX id of the person behind `handle`, fetched and stored; null when it cannot be found. */
export async function resolveHandle(env: Env, siteOrigin: string, handle: string): Promise<number | null> {
  const m = HANDLE.exec(handle.trim());
  if (!m || !isRemoteUsername(m[1])) return null;
  const [, name, host] = m;
  if (host.toLowerCase() === new URL(siteOrigin).host.toLowerCase()) return localIdByName(env.DB, name);
  const scheme = env.APP_ENV === "local" ? "http" : "https";
  const finger = new URL(`${scheme}://${host}/.well-known/webfinger`);
  finger.searchParams.set("resource", `acct:${name}@${host}`);
  // Nothing is fetched from a server the moderators blocked: its people are not found.
  if (!fetchable(env, finger) || (await isBlockedHost(env.DB, host))) return null;
  const res = await guardedFetch(
    new Request(finger, { headers: { accept: "application/jrd+json" }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) }),
    outboundFor(env, { send: instanceSender(env, siteOrigin) }),
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
  const own = new URL(siteOrigin).origin;
  if (target?.origin === own) return ownAccount(env, target);
  if (!target || !fetchable(env, target) || (await isBlockedHost(env.DB, target.host))) return null;
  const federation = await federationFor(env);
  const ctx = federation.createContext(new URL(siteOrigin), { env });
  const actor = await ctx.lookupObject(target.href);
  // A page elsewhere may name an actor of ours: that is the local account, never a copy.
  if (!isActor(actor) || !actor.id) return null;
  if (actor.id.origin === own) return ownAccount(env, actor.id);
  const known = await storedActorId(env, actor.id);
  const uid = await storeActor(env, actor);
  // Found for the first time: their recent posts are read in by the consumer (backfill.ts).
  if (uid !== null && known === null)
    await env.FED_QUEUE?.send({ notex: "backfill", op: "create", uid, origin: siteOrigin }, { contentType: "json" });
  return uid;
}

/** A post named by URL: a note or a reply here. */
export interface PostRef {
  kind: "note" | "reply";
  id: number;
}

/** This server's own post URLs: /ap/notes/{id}, /ap/notes/r{id}, /{name}/note/{id}, /{name}/rep/{id}. */
const OWN_POST = /^\/(?:ap\/notes\/(r?)(\d{1,16})|[^/]+\/(note|rep)\/(\d{1,16}))\/?$/;

function ownPost(url: URL): PostRef | null {
  const m = OWN_POST.exec(url.pathname);
  if (!m) return null;
  const reply = m[1] === "r" || m[3] === "rep";
  const n = Number(m[2] ?? m[4]);
  return reply ? { kind: "reply", id: replyOfNumber(n) } : { kind: "note", id: n };
}

/** A post already stored here by its id or its page elsewhere (remote_objects' key, or its url). */
const storedPost = (env: Env, uri: string) =>
  env.DB.prepare(
    "select kind, row_id as id from remote_objects where (uri = ?1 or url = ?1) and kind in ('note', 'reply') limit 1",
  )
    .bind(uri)
    .first<PostRef>();

/**
 * The post at `url` (its ActivityPub id or its page), as a note or reply here: one of this
 * server's by its path; one stored before by its id or page; else fetched from its server (signed,
 * through the same gate and time limit as an actor), kept only when it comes from its author's own
 * origin (Mastodon's CVE-2024-23832), and stored as an author's older post is (receive.ts
 * keepOlderNote, its author stored first). Null when it cannot be found or is a reply NoteX does
 * not hold the thread of.
 */
export async function resolvePostUrl(env: Env, siteOrigin: string, url: string): Promise<PostRef | null> {
  const target = URL.canParse(url) ? new URL(url) : null;
  if (!target) return null;
  if (target.origin === new URL(siteOrigin).origin) return ownPost(target);
  const known = await storedPost(env, target.href);
  if (known) return known;
  if (!fetchable(env, target) || (await isBlockedHost(env.DB, target.host))) return null;
  const federation = await federationFor(env);
  const ctx = federation.createContext(new URL(siteOrigin), { env });
  const note = await ctx.lookupObject(target.href);
  if (!(note instanceof Note) || !note.id || note.attributionId?.origin !== note.id.origin) return null;
  if (note.id.origin === new URL(siteOrigin).origin) return ownPost(note.id);
  if (await isBlockedHost(env.DB, note.id.host)) return null;
  const again = await storedPost(env, note.id.href);
  if (again) return again;
  const author = await resolveActorUrl(env, siteOrigin, note.attributionId.href);
  if (author === null) return null;
  await keepOlderNote(ctx, author, note);
  return storedPost(env, note.id.href);
}
