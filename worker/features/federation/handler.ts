// Answers one ActivityPub request with Fedify (loaded on demand by federation.routes.ts): WebFinger,
// NodeInfo, actors, collections, objects, inboxes, and the pages whose URL also names an object
// (a profile, a note, a reply) when they are asked for as activity+json.
import type { Env } from "../../env";
import { localIdByName } from "./data";
import { federationFor } from "./federation";

/** Page paths that also name an ActivityPub object: /{name}, /{name}/note/{id}, /{name}/rep/{id}. */
const PAGE = /^\/([^/.@]+)(?:\/(note|rep)\/(\d+))?\/?$/;

async function objectPathOf(env: Env, pathname: string): Promise<string | null> {
  const m = PAGE.exec(pathname);
  if (!m) return null;
  const uid = await localIdByName(env.DB, decodeURIComponent(m[1]));
  if (uid === null) return null;
  if (!m[2]) return `/ap/users/${uid}`;
  return m[2] === "note" ? `/ap/notes/${m[3]}` : `/ap/notes/r${m[3]}`;
}

/** Fedify's answer, or null when the request is not one of its (the page or API answers instead). */
export async function serveFederation(request: Request, env: Env, negotiate: boolean): Promise<Response | null> {
  let req = request;
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
  return passed ? null : res;
}
