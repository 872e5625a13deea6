// Two NoteX instances in one vitest run (tests/api/federation-e2e.test.ts): each an env variant of
// the same worker with its own D1 database, origin and an in-memory queue; globalThis.fetch is
// routed by host to worker.fetch(request, envFor(host)), so Fedify's real HTTP requests (WebFinger,
// actor documents, signed deliveries) travel between them. drain() runs each instance's queue()
// handler on what was enqueued (createMessageBatch / getQueueResult) until both queues are empty.
import {
  applyD1Migrations,
  createExecutionContext,
  createMessageBatch,
  getQueueResult,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import worker from "./worker";
import { pkce } from "./mastodon";

/** What was sent to the queue binding, kept until drain() hands it to the consumer. */
export class MemoryQueue {
  items: unknown[] = [];
  async send(body: unknown) {
    this.items.push(structuredClone(body));
  }
  async sendBatch(messages: Iterable<{ body: unknown }>) {
    for (const m of messages) this.items.push(structuredClone(m.body));
  }
}

export interface Instance {
  host: string;
  origin: string;
  env: Cloudflare.Env;
  queue: MemoryQueue;
  fetch(request: Request): Promise<Response>;
}

/** An instance on `db`; with `sessions`, its own sessions too (else shared: ids of both can meet there). */
export function instance(host: string, db: D1Database, sessions?: KVNamespace): Instance {
  const queue = new MemoryQueue();
  const e = {
    ...env,
    DB: db,
    SESSIONS: sessions ?? env.SESSIONS,
    APP_ORIGIN: `http://${host}`,
    FED_QUEUE: queue as unknown as Queue<unknown>,
    RL_FED: undefined,
  };
  return {
    host,
    origin: `http://${host}`,
    env: e,
    queue,
    fetch: async (request) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(request, e, ctx);
      // What the request left running (ctx.waitUntil: a live publish, a notice) ends before its
      // answer is handed on, as in tests/http.ts: nothing of a test's requests outlives its file,
      // which in the shared runtime would still be running when the next file (or the pool's
      // teardown) begins.
      await waitOnExecutionContext(ctx);
      return res;
    },
  };
}

export async function migrate(db: D1Database) {
  await applyD1Migrations(db, env.TEST_MIGRATIONS);
}

/** Routes every outgoing request for one of `instances` to it; anything else goes out as before. */
export function routeFetch(instances: Pick<Instance, "host" | "fetch">[]): () => void {
  const real = globalThis.fetch;
  const byHost = new Map(instances.map((i) => [i.host, i]));
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const target = byHost.get(new URL(request.url).host);
    return target ? target.fetch(request) : real(request);
  }) as typeof fetch;
  return () => {
    globalThis.fetch = real;
  };
}

/** Two instances ready to talk: Fedify loaded, the second database migrated, fetch routed. Answers the undo. */
export async function connect(instances: Instance[]): Promise<() => void> {
  await import("../worker/features/federation/federation");
  await migrate(env.DB_B);
  return routeFetch(instances);
}

let seq = 0;
/** Runs the queue consumers until no instance has anything left; a message asked to retry fails the test. */
export async function drain(instances: Instance[]) {
  for (let round = 0; round < 30; round++) {
    let moved = false;
    for (const inst of instances) {
      const bodies = inst.queue.items.splice(0);
      if (!bodies.length) continue;
      moved = true;
      const batch = createMessageBatch(
        "notex-federation",
        bodies.map((body) => ({ id: `m${seq++}`, timestamp: new Date(), attempts: 1, body })),
      );
      const ctx = createExecutionContext();
      await worker.queue(batch, inst.env);
      const result = await getQueueResult(batch, ctx);
      if (result.retryMessages.length)
        throw new Error(`${inst.host}: ${result.retryMessages.length} message(s) asked to retry`);
    }
    if (!moved) return;
  }
  throw new Error("the queues never emptied");
}

/** A signed-in person on one instance, calling its API. */
export interface Person {
  id: number;
  username: string;
  /** Their bearer token (for a request call() does not make: a multipart upload). */
  token: string;
  call<T = any>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; headers: Headers }>;
}

let ip = 0;

/** Requests to one instance from one client address, JSON both ways, with a bearer token if given. */
export function caller(inst: Instance) {
  const addr = `10.77.${inst.host.length}.${ip++ % 250}`;
  return async (method: string, path: string, body?: unknown, token?: string) => {
    const headers = new Headers({ "cf-connecting-ip": addr, "content-type": "application/json" });
    if (token) headers.set("authorization", `Bearer ${token}`);
    const res = await inst.fetch(
      new Request(`${inst.origin}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, body: parsed as any, headers: res.headers };
  };
}

export async function person(inst: Instance, username: string): Promise<Person> {
  const call = caller(inst);
  const made = await call("POST", "/v1/signup", {
    email: `${username}@${inst.host}.example.com`,
    name: username,
    username,
    password: "secret123",
  });
  if (made.status !== 201) throw new Error(`signup on ${inst.host}: ${made.status} ${JSON.stringify(made.body)}`);
  const token = made.body.token as string;
  return { id: made.body.user.id, username, token, call: (m, p, b) => call(m, p, b, token) };
}

/**
 * POSTs an activity to `inbox` signed (draft-cavage) with `uid`'s real RSA key on `from`, or with
 * `key` instead (a forgery: the key id still names `uid`'s key).
 */
export async function signedPost(from: Instance, uid: number, inbox: string, activity: object, key?: CryptoKey) {
  const { signRequest } = await import("@fedify/fedify");
  const { keyPairsOf } = await import("../worker/features/federation/keys");
  const [rsa] = await keyPairsOf(from.env, from.env.DB, uid);
  const request = new Request(inbox, {
    method: "POST",
    headers: { "content-type": "application/activity+json" },
    body: JSON.stringify({ "@context": "https://www.w3.org/ns/activitystreams", ...activity }),
  });
  const keyId = new URL(`${from.origin}/ap/users/${uid}#main-key`);
  return globalThis.fetch(await signRequest(request, key ?? rsa.privateKey, keyId));
}

const OOB = "urn:ietf:wg:oauth:2.0:oob";

/** Registers an app on `inst` and gets `p`'s token through consent with PKCE. */
export async function appToken(inst: Instance, p: Person) {
  const app = (
    await caller(inst)("POST", "/api/v1/apps", {
      client_name: "Fed App",
      redirect_uris: OOB,
      scopes: "read write follow",
    })
  ).body;
  const { verifier, challenge } = await pkce();
  const consent = await p.call("POST", "/v1/oauth/authorize", {
    response_type: "code",
    client_id: app.client_id,
    redirect_uri: OOB,
    scope: "read write follow",
    code_challenge: challenge,
    code_challenge_method: "S256",
  });
  const res = await caller(inst)("POST", "/oauth/token", {
    grant_type: "authorization_code",
    code: consent.body.code,
    redirect_uri: OOB,
    client_id: app.client_id,
    client_secret: app.client_secret,
    code_verifier: verifier,
  });
  return res.body.access_token as string;
}

/** Marks proxy paths as shown by `uid`'s profile (a remote person here), as storing them does. */
export async function storedMedia(db: D1Database, uid: number, paths: string[]) {
  const { mediaStatements } = await import("../worker/features/federation/media");
  await db.batch(mediaStatements(db, uid, null, paths));
}

/** A note by `who`, answered with its id. */
export async function noteBy(who: Person, text: string) {
  const res = await who.call("POST", "/v1/notes", { label: "work", content: `<p>${text}</p>` });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.note.id as number;
}

/** `who` stands for someone on far.test, and `note` for a post stored from there. */
export function standInFar(db: D1Database, who: number, note: number) {
  return db.batch([
    db
      .prepare(
        "insert into remote_actors (user_id, uri, host, inbox, shared_inbox, url, fetched_at) values (?1, 'http://far.test/u', 'far.test', 'http://far.test/inbox', null, '', 0)",
      )
      .bind(who),
    db
      .prepare("insert into remote_objects (uri, kind, row_id, user_id) values ('http://far.test/n/1', 'note', ?1, ?2)")
      .bind(note, who),
  ]);
}

/** A count read on `inst`'s database (the query names it n; 0 when no row). */
export const one = (inst: Instance, sql: string, ...args: unknown[]) =>
  inst.env.DB.prepare(sql)
    .bind(...args)
    .first<{ n: number }>()
    .then((r) => r?.n ?? 0);
