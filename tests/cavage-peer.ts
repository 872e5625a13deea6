// A second ActivityPub peer for the two-instance tests, written without Fedify: it signs and
// verifies draft-cavage HTTP signatures only, with @peertube/http-signature (the library PeerTube
// uses; Mastodon before 4.5, Misskey and Pleroma speak the same dialect), and, like GoToSocial and
// Pleroma, matches an Undo to what it undoes by the embedded activity's id. In "secure mode" (as
// GoToSocial always is, Mastodon with authorized fetch) it answers actor and object GETs only when
// they are signed. It is a fetch handler on a test host: routeFetch sends it NoteX's requests, and
// it reaches NoteX through globalThis.fetch, all in process (loopback only, no network).
import { generateKeyPairSync } from "node:crypto";
// @ts-expect-error: the package ships no types
import httpSignature from "@peertube/http-signature";

const AS = "https://www.w3.org/ns/activitystreams";
const AP_JSON = "application/activity+json";
const SIGNED = ["(request-target)", "host", "date"];

export interface CavagePeer {
  host: string;
  origin: string;
  /** Every activity that arrived in an inbox, verified. */
  inbox: Record<string, any>[];
  /** Deliveries refused (an RFC 9421 first knock aside): unsigned, or a signature that did not verify. */
  refused: { path: string; why: string }[];
  /** Key ids of the signed GETs it answered; `unsigned`: GETs it refused for lack of a signature. */
  signedGets: string[];
  unsignedGets: string[];
  /** Activity ids undone, matched by id to one that arrived before; `unmatched`: Undos whose object id it never saw. */
  undone: string[];
  unmatched: string[];
  /** Who follows `name` here (actor URIs), after Accept. */
  followersOf(name: string): string[];
  /** Follows waiting for `name`'s decision (a locked account): the Follow activities. */
  pending(name: string): Record<string, any>[];
  account(name: string, opts?: { locked?: boolean }): string;
  /** `name` answers a pending follow from `actor`. */
  decide(name: string, actor: string, accept: boolean): Promise<Response>;
  /** `name` sends `activity` to `inbox`, signed (draft-cavage). */
  send(name: string, inbox: string, activity: Record<string, unknown>): Promise<Response>;
  /** A GET of `url` signed by the peer. */
  get(url: string): Promise<Response>;
  /** `name` posts a public Note (with extra fields) to `inbox`. */
  post(name: string, inbox: string, note: Record<string, unknown>): Promise<Response>;
  /** `name` publishes a public Note (with extra fields) without sending it: served at its id. Answers the id. */
  publish(name: string, note: Record<string, unknown>): string;
  fetch(request: Request): Promise<Response>;
}

const json = (body: unknown, status = 200, type = AP_JSON) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": type } });

const digestOf = async (body: string) =>
  `SHA-256=${Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body))).toString("base64")}`;

export function cavagePeer(host: string, opts: { secure?: boolean } = {}): CavagePeer {
  const origin = `http://${host}`;
  const { privateKey, publicKey } = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  const accounts = new Map<string, { locked: boolean }>();
  const followers = new Map<string, Set<string>>();
  const waiting = new Map<string, Record<string, any>[]>();
  const seen = new Map<string, Record<string, any>>();
  const keys = new Map<string, string>();
  const notes = new Map<string, Record<string, unknown>>();
  let seq = 0;
  const actorUri = (name: string) => `${origin}/users/${name}`;
  // The peer's own actor signs its key fetches (as an instance actor does).
  accounts.set("peer", { locked: false });

  /** Signs `request` as `name` (or the peer itself for key fetches). */
  async function signed(url: string, init: { method: string; body?: string; accept?: string }, name = "peer") {
    const u = new URL(url);
    const headers: Record<string, string> = { host: u.host, date: new Date().toUTCString() };
    if (init.accept) headers.accept = init.accept;
    const names = [...SIGNED];
    if (init.body !== undefined) {
      headers["content-type"] = AP_JSON;
      headers.digest = await digestOf(init.body);
      names.push("digest");
    }
    const req = {
      method: init.method,
      path: u.pathname + u.search,
      headers,
      setHeader: (k: string, v: string) => {
        headers[k.toLowerCase()] = v;
      },
      getHeader: (k: string) => headers[k.toLowerCase()],
    };
    httpSignature.sign(req, { key: privateKey, keyId: `${actorUri(name)}#main-key`, headers: names });
    // The library writes `Authorization: Signature …`; ActivityPub servers read the Signature header.
    headers.signature = headers.authorization.replace(/^Signature /, "");
    delete headers.authorization;
    return globalThis.fetch(new Request(url, { method: init.method, headers, body: init.body }));
  }

  /** The PEM of a key id, fetched (signed, as a secure-mode server fetches) and kept. */
  async function keyOf(keyId: string): Promise<string | null> {
    const known = keys.get(keyId);
    if (known) return known;
    const res = await signed(keyId, { method: "GET", accept: AP_JSON });
    if (!res.ok) return null;
    const doc = (await res.json()) as Record<string, any>;
    const key = doc.publicKey?.id === keyId || doc.id === keyId ? (doc.publicKey ?? doc) : null;
    const pem = typeof key?.publicKeyPem === "string" ? key.publicKeyPem : null;
    if (pem) keys.set(keyId, pem);
    return pem;
  }

  /** The verified signer's key id, or why not: draft-cavage only (an RFC 9421 signature alone is refused). */
  async function verify(request: Request, body?: string): Promise<{ keyId: string } | { why: string }> {
    const headers: Record<string, string> = {};
    request.headers.forEach((v, k) => {
      headers[k] = v;
    });
    // RFC 9421 also sends a Signature header, beside Signature-Input: this dialect does not read it.
    if (headers["signature-input"]) return { why: "rfc9421" };
    if (!headers.signature) return { why: "unsigned" };
    if (body !== undefined && headers.digest !== (await digestOf(body))) return { why: "digest" };
    try {
      const u = new URL(request.url);
      const parsed = httpSignature.parseRequest(
        { method: request.method, url: u.pathname + u.search, headers },
        { headers: body !== undefined ? [...SIGNED, "digest"] : SIGNED, clockSkew: 3600 },
      );
      const pem = await keyOf(parsed.keyId);
      if (!pem || !httpSignature.verifySignature(parsed, pem)) return { why: "bad signature" };
      return { keyId: parsed.keyId };
    } catch (error) {
      return { why: String(error) };
    }
  }

  function actorDoc(name: string) {
    return {
      // As Mastodon writes it: manuallyApprovesFollowers and schema.org's PropertyValue defined inline.
      "@context": [
        AS,
        "https://w3id.org/security/v1",
        {
          manuallyApprovesFollowers: "as:manuallyApprovesFollowers",
          schema: "http://schema.org#",
          PropertyValue: "schema:PropertyValue",
          value: "schema:value",
        },
      ],
      id: actorUri(name),
      type: "Person",
      preferredUsername: name,
      name: `Cavage ${name}`,
      url: `${origin}/@${name}`,
      attachment: [
        { type: "PropertyValue", name: "Website", value: `<a href="https://${name}.example/">${name}.example</a>` },
        { type: "PropertyValue", name: "Pronouns", value: "they/them<script>x</script>" },
      ],
      inbox: `${actorUri(name)}/inbox`,
      outbox: `${actorUri(name)}/outbox`,
      endpoints: { sharedInbox: `${origin}/inbox` },
      manuallyApprovesFollowers: accounts.get(name)?.locked ?? false,
      publicKey: { id: `${actorUri(name)}#main-key`, owner: actorUri(name), publicKeyPem: publicKey },
    };
  }

  async function answerFollow(name: string, follow: Record<string, any>, accept: boolean) {
    const actor = await actorOf(follow.actor);
    if (accept) {
      const mine = followers.get(name) ?? new Set();
      mine.add(follow.actor);
      followers.set(name, mine);
    }
    return peer.send(name, actor.inbox, {
      id: `${actorUri(name)}#answers/${++seq}`,
      type: accept ? "Accept" : "Reject",
      actor: actorUri(name),
      object: follow,
    });
  }

  async function actorOf(uri: string) {
    const res = await signed(uri, { method: "GET", accept: AP_JSON });
    return (await res.json()) as { inbox: string };
  }

  async function receive(activity: Record<string, any>) {
    peer.inbox.push(activity);
    if (typeof activity.id === "string") seen.set(activity.id, activity);
    const object = activity.object;
    if (activity.type === "Follow" && typeof object === "string" && object.startsWith(`${origin}/users/`)) {
      const name = object.slice(`${origin}/users/`.length);
      if (accounts.get(name)?.locked) waiting.set(name, [...(waiting.get(name) ?? []), activity]);
      else await answerFollow(name, activity, true);
    }
    if (activity.type === "Undo") {
      const id = typeof object === "string" ? object : object?.id;
      const original = id ? seen.get(id) : undefined;
      if (!original || original.actor !== activity.actor) {
        peer.unmatched.push(String(id));
        return;
      }
      peer.undone.push(id);
      if (original.type === "Follow")
        followers.get(String(original.object).slice(`${origin}/users/`.length))?.delete(activity.actor);
    }
  }

  const peer: CavagePeer = {
    host,
    origin,
    inbox: [],
    refused: [],
    signedGets: [],
    unsignedGets: [],
    undone: [],
    unmatched: [],
    followersOf: (name) => [...(followers.get(name) ?? [])],
    pending: (name) => waiting.get(name) ?? [],
    account(name, o = {}) {
      accounts.set(name, { locked: !!o.locked });
      return actorUri(name);
    },
    async decide(name, actor, accept) {
      const list = waiting.get(name) ?? [];
      const follow = list.find((f) => f.actor === actor);
      if (!follow) throw new Error(`no follow from ${actor} waiting for ${name}`);
      waiting.set(
        name,
        list.filter((f) => f !== follow),
      );
      return answerFollow(name, follow, accept);
    },
    send(name, inbox, activity) {
      const body = JSON.stringify({ "@context": AS, ...activity });
      return signed(inbox, { method: "POST", body }, name);
    },
    get: (url) => signed(url, { method: "GET", accept: AP_JSON }),
    post(name, inbox, note) {
      const id = peer.publish(name, note);
      const object = notes.get(id);
      return peer.send(name, inbox, { id: `${id}#create`, type: "Create", actor: actorUri(name), object });
    },
    publish(name, note) {
      const id = `${origin}/notes/${name}-${++seq}`;
      notes.set(id, {
        id,
        type: "Note",
        attributedTo: actorUri(name),
        url: id,
        to: [`${AS}#Public`],
        published: new Date().toISOString(),
        ...note,
      });
      return id;
    },
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === "/.well-known/webfinger") {
        const m = /^acct:([^@]+)@(.+)$/.exec(url.searchParams.get("resource") ?? "");
        if (!m || m[2] !== host || !accounts.has(m[1])) return new Response("not found", { status: 404 });
        return json(
          {
            subject: `acct:${m[1]}@${host}`,
            links: [{ rel: "self", type: AP_JSON, href: actorUri(m[1]) }],
          },
          200,
          "application/jrd+json",
        );
      }
      if (request.method === "POST" && (url.pathname === "/inbox" || /^\/users\/[^/]+\/inbox$/.test(url.pathname))) {
        const body = await request.text();
        const checked = await verify(request, body);
        if ("why" in checked) {
          // An RFC 9421 first knock is refused, as such servers refuse it; Fedify knocks again in draft-cavage.
          if (checked.why !== "rfc9421") peer.refused.push({ path: url.pathname, why: checked.why });
          return new Response(checked.why, { status: 401 });
        }
        await receive(JSON.parse(body));
        return new Response(null, { status: 202 });
      }
      const user = /^\/users\/([^/]+)$/.exec(url.pathname);
      const note = notes.get(`${origin}${url.pathname}`);
      if (request.method === "GET" && ((user && accounts.has(user[1])) || note)) {
        if (opts.secure) {
          const checked = await verify(request);
          if ("why" in checked) {
            // An RFC 9421 first knock is refused as this dialect's servers refuse it; the sender may knock again.
            if (checked.why === "unsigned") peer.unsignedGets.push(url.pathname);
            return new Response(checked.why, { status: 401 });
          }
          peer.signedGets.push(checked.keyId);
        }
        return json(note ? { "@context": AS, ...note } : actorDoc(user?.[1] ?? ""));
      }
      return new Response("not found", { status: 404 });
    },
  };
  return peer;
}
