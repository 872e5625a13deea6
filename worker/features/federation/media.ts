// Images from other servers (avatars, covers, a remote post's pictures) are shown through this
// worker, as Mastodon does with its media cache: the pages' CSP stays `img-src 'self'`, and a
// reader's browser never contacts another server (their address stays private; a server cannot
// track who reads a post by its image requests).
//
// A remote image URL is stored as `/img/remote/{sig}/{url as base64url}`, signed with an HMAC of
// FEDERATION_SECRET, so this is not an open proxy: only URLs that NoteX itself signed are fetched,
// and only while stored remote content names them (a `remote_media` row, which goes with the note
// or the person by cascade, and is not served while that note is hidden or that person suspended).
// An answer already in the edge cache is served until its day there ends, without asking D1: a
// page of twenty avatars costs no reads, and a removed image leaves the cache within a day.
// Each fetch goes through the outbound gate (lib/outbound.ts: https, ports 80/443 and public
// addresses only outside APP_ENV=local, every redirect checked again), times out, takes only raster images of a known type up to 8 MB, and the
// answer is kept in the edge cache (Cache API) for a day.
import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import { Hono } from "hono";
import type { AppEnv, Env } from "../../env";
import { readCapped } from "../../lib/capped";
import { guardedFetch, outboundFor } from "../../lib/outbound";

export const REMOTE_IMG_PREFIX = "/img/remote/";
export const MAX_REMOTE_IMAGE = 8 * 1024 * 1024;
const TIMEOUT_MS = 10_000;
/** Raster types only: an SVG can carry script, and nothing else is an image a page shows. */
const TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"]);
/** The key's fallback locally, as the actor keys' (keys.ts); production refuses to start without the secret. */
const LOCAL_SECRET = "local-dev-federation-secret-change-me-0123456789";

const enc = new TextEncoder();
const signature = (env: Pick<Env, "FEDERATION_SECRET">, url: string) =>
  hmac(SHA256, enc.encode(`remote-image\n${env.FEDERATION_SECRET || LOCAL_SECRET}`), enc.encode(url)).slice(0, 16);

/**
 * The address NoteX shows a remote image at: this worker's proxy path, or "" for anything that is
 * not an http(s) URL (a `javascript:` or `data:` URL from another server is dropped here).
 */
export function proxiedImage(env: Pick<Env, "FEDERATION_SECRET">, url: string | URL | null | undefined): string {
  const href = url instanceof URL ? url.href : (url ?? "");
  if (!/^https?:\/\//i.test(href) || href.length > 2000) return "";
  return `${REMOTE_IMG_PREFIX}${encodeHexLowerCase(signature(env, href))}/${encodeBase64urlNoPadding(enc.encode(href))}`;
}

/** The remote URL a proxy path names, when its signature holds. */
function verifiedUrl(env: Env, sig: string, encoded: string): URL | null {
  let href: string;
  try {
    href = new TextDecoder().decode(decodeBase64urlIgnorePadding(encoded));
  } catch {
    return null;
  }
  const expected = encodeHexLowerCase(signature(env, href));
  if (sig.length !== expected.length || !constantTimeEqual(enc.encode(sig), enc.encode(expected))) return null;
  return URL.canParse(href) ? new URL(href) : null;
}

/** The signature part of a proxy path made by proxiedImage ("" for anything else). */
const sigOf = (path: string) =>
  path.startsWith(REMOTE_IMG_PREFIX) ? path.slice(REMOTE_IMG_PREFIX.length).split("/")[0] : "";

/**
 * Statements that make `paths` (proxy paths from proxiedImage) the images stored content shows:
 * a note's pictures (noteId) or, with noteId null, the person's avatar and cover. What that note or
 * person showed before is forgotten first.
 */
export function mediaStatements(
  db: D1Database,
  userId: number | { actorUri: string },
  noteId: number | null,
  paths: string[],
) {
  const owner = typeof userId === "number" ? "?1" : "(select id from users where email = ?1)";
  const who = typeof userId === "number" ? userId : userId.actorUri;
  const sigs = [...new Set(paths.map(sigOf).filter(Boolean))];
  return [
    db.prepare(`delete from remote_media where user_id = ${owner} and note_id is ?2`).bind(who, noteId),
    ...sigs.map((sig) =>
      db.prepare(`insert into remote_media (sig, user_id, note_id) values (?3, ${owner}, ?2)`).bind(who, noteId, sig),
    ),
  ];
}

/** Whether stored content that is on show names the image. */
const referenced = async (env: Env, sig: string) =>
  !!(await env.DB.prepare(
    `select 1 as x from remote_media m join users u on u.id = m.user_id left join notes n on n.id = m.note_id
     where m.sig = ? and u.suspended_at is null and n.hidden_at is null limit 1`,
  )
    .bind(sig)
    .first());

/** The image's answer from its server, through the outbound gate (redirects checked again there). */
const fetchImage = (env: Env, url: URL) =>
  guardedFetch(
    new Request(url, { headers: { accept: [...TYPES].join(", ") }, signal: AbortSignal.timeout(TIMEOUT_MS) }),
    outboundFor(env),
  );

const missing = () =>
  // Briefly cached: a server that is down is asked again soon, not on every page view.
  new Response("Not found", { status: 404, headers: { "Cache-Control": "public, max-age=300" } });

async function proxy(env: Env, sig: string, encoded: string): Promise<Response> {
  const url = verifiedUrl(env, sig, encoded);
  if (!url || !(await referenced(env, sig)))
    return new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  const res = await fetchImage(env, url).catch(() => null);
  const type = (res?.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (!res?.ok || !TYPES.has(type)) return missing();
  const body = await readCapped(res.body, res.headers.get("content-length"), MAX_REMOTE_IMAGE).catch(() => null);
  if (!body) return missing();
  return new Response(body, {
    headers: {
      "Content-Type": type,
      "Cache-Control": "public, max-age=86400, stale-while-revalidate=604800",
      "X-Content-Type-Options": "nosniff",
      // Opened on its own, it is an image and nothing else.
      "Content-Security-Policy": "default-src 'none'; sandbox",
    },
  });
}

/** GET /img/remote/{sig}/{url}: a remote image through the edge cache. */
export const remoteImageRoutes = new Hono<AppEnv>().get("/img/remote/:sig/:url", async (c) => {
  const cache = typeof caches === "undefined" ? null : (caches as unknown as { default: Cache }).default;
  const key = new Request(new URL(c.req.path, c.req.url));
  const hit = await cache?.match(key);
  // A cached answer's headers are immutable; the security headers are set on a copy.
  if (hit) return new Response(hit.body, hit);
  const res = await proxy(c.env, c.req.param("sig"), c.req.param("url"));
  if (cache && res.status !== 404) c.executionCtx.waitUntil(cache.put(key, res.clone()));
  return res;
});
