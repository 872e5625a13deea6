// Answers one ActivityPub request with Fedify (loaded on demand by federation.routes.ts): WebFinger,
// NodeInfo, actors, collections, objects, inboxes, and the pages whose URL also names an object
// (a profile, a note, a reply) when they are asked for as activity+json.
import type { Env } from "../../env";
import { OBJECT_PAGE } from "./context";
import { actorState, localIdByName } from "./data";
import { federationFor } from "./federation";

async function objectPathOf(env: Env, pathname: string): Promise<string | null> {
  const m = OBJECT_PAGE.exec(pathname);
  if (!m) return null;
  const uid = await localIdByName(env.DB, decodeURIComponent(m[1]));
  if (uid === null) return null;
  if (!m[2]) return `/ap/users/${uid}`;
  return m[2] === "note" ? `/ap/notes/${m[3]}` : `/ap/notes/r${m[3]}`;
}

/** An account's collections: only a local account that federates has them. */
const COLLECTION = /^\/ap\/users\/(\d+)\/(outbox|followers|following)\/?$/;

/** 410 for a suspended or deleted account's collections, 404 for anyone else's but a local account's. */
async function collectionRefusal(env: Env, pathname: string): Promise<Response | null> {
  const m = COLLECTION.exec(pathname);
  if (!m) return null;
  const state = await actorState(env.DB, Number(m[1]));
  if (state === "active") return null;
  return new Response(null, { status: state === "gone" ? 410 : 404, headers: { Vary: "Accept" } });
}

/**
 * WebFinger's resource as Fedify reads it: a bare `name@host` (or `@name@host`), which some servers
 * and people send, is the acct: URI it means.
 */
function withAcct(request: Request): Request {
  const url = new URL(request.url);
  const resource = url.searchParams.get("resource") ?? "";
  if (url.pathname !== "/.well-known/webfinger" || !/^@?[^@:/\s]+@[^@/\s]+$/.test(resource)) return request;
  url.searchParams.set("resource", `acct:${resource.replace(/^@/, "")}`);
  return new Request(url, { headers: request.headers });
}

/** A note its author deleted answers 410 Gone on its ActivityPub id, as on its page. */
async function deletedNote(env: Env, pathname: string): Promise<Response | null> {
  const m = /^\/ap\/notes\/(\d+)$/.exec(pathname);
  const gone = m ? await env.DB.prepare("select 1 from deleted_notes where id = ?").bind(Number(m[1])).first() : null;
  return gone ? new Response(null, { status: 410 }) : null;
}

/** Fedify's answer, or null when the request is not one of its (the page or API answers instead). */
export async function serveFederation(request: Request, env: Env, negotiate: boolean): Promise<Response | null> {
  const refused = request.method === "GET" ? await collectionRefusal(env, new URL(request.url).pathname) : null;
  if (refused) return refused;
  let req = withAcct(request);
  if (negotiate) {
    const path = await objectPathOf(env, new URL(request.url).pathname);
    if (!path) return null;
    req = new Request(new URL(path, request.url), { headers: request.headers });
  }
  const federation = await federationFor(env);
  let passed = false;
  const pass = () => {
    passed = true;
    return new Response(null, { status: 404 });
  };
  const res = await federation.fetch(req, { contextData: { env }, onNotFound: pass, onNotAcceptable: pass });
  return passed ? deletedNote(env, new URL(req.url).pathname) : res;
}
