// A tiny ActivityPub server on loopback for the browser tests: Fedify in the test's own process,
// over plain HTTP (NoteX federates over loopback under APP_ENV=local). Any name is an account here
// (`/users/{name}`, WebFinger `acct:name@127.0.0.1:port`), each with an avatar; it accepts every
// Follow at once, remembers who follows whom, and `post()` sends a Create(Note) to those followers.
// Deliveries go out at once (no queue): when `post()` resolves, NoteX has the activity.
import http from "node:http";
import { createFederation, generateCryptoKeyPair, MemoryKvStore } from "@fedify/fedify";
import {
  Accept,
  Create,
  Document,
  Endpoints,
  Flag,
  Follow,
  Image,
  Mention,
  Note,
  Person,
  PUBLIC_COLLECTION,
  type Recipient,
  Undo,
} from "@fedify/vocab";

/** A 16×16 two-colour PNG: the avatar and the image every post carries. */
export const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAIUlEQVR42mP4sEUDK9KoOIEVMYxqoIkGXBK4DBrVQBMNAAvcmhBke073AAAAAElFTkSuQmCC",
  "base64",
);

export interface Peer {
  origin: string;
  host: string;
  /** Who follows `name` here (actor URIs). */
  followersOf(name: string): string[];
  /** What arrived in `name`'s inbox: Creates, with their Mention tags' hrefs. */
  received: { to: string; note: string; mentions: string[] }[];
  /** Reports forwarded here (Flag): who sent them, what they name, their text. */
  flags: { actor: string; objects: string[]; content: string }[];
  /** `name` posts `text` (and an image with alt text) to their followers; resolves once delivered. */
  post(name: string, text: string, mention?: { actor: string; inbox: string; handle: string }): Promise<void>;
  close(): Promise<void>;
}

const NAME = /^[a-z0-9_]{1,40}$/;

export async function startPeer(port: number): Promise<Peer> {
  const host = `127.0.0.1:${port}`;
  const origin = `http://${host}`;
  const federation = createFederation<void>({ kv: new MemoryKvStore(), allowPrivateAddress: true });
  const keys = [await generateCryptoKeyPair("RSASSA-PKCS1-v1_5"), await generateCryptoKeyPair("Ed25519")];
  const followers = new Map<string, Map<string, Recipient>>();
  const received: Peer["received"] = [];
  const flags: Peer["flags"] = [];
  let seq = 0;

  federation
    .setActorDispatcher("/users/{identifier}", async (ctx, identifier) => {
      if (!NAME.test(identifier)) return null;
      const pairs = await ctx.getActorKeyPairs(identifier);
      return new Person({
        id: ctx.getActorUri(identifier),
        preferredUsername: identifier,
        name: `Peer ${identifier}`,
        summary: `<p>Writes on a <b>tiny</b> server.<script>alert(1)</script></p>`,
        url: new URL(`/@${identifier}`, origin),
        icon: new Image({ url: new URL(`/media/${identifier}.png`, origin), mediaType: "image/png" }),
        inbox: ctx.getInboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: pairs[0].cryptographicKey,
        assertionMethods: pairs.map((k) => k.multikey),
      });
    })
    .setKeyPairsDispatcher(() => keys);

  federation.setObjectDispatcher(Note, "/notes/{id}", () => null);

  federation
    .setInboxListeners("/users/{identifier}/inbox", "/inbox")
    .on(Follow, async (ctx, follow) => {
      const target = follow.objectId ? ctx.parseUri(follow.objectId) : null;
      const actor = await follow.getActor(ctx);
      if (target?.type !== "actor" || !actor?.id || !follow.id) return;
      const mine = followers.get(target.identifier) ?? new Map();
      mine.set(actor.id.href, actor);
      followers.set(target.identifier, mine);
      const me = ctx.getActorUri(target.identifier);
      await ctx.sendActivity(
        { identifier: target.identifier },
        actor,
        new Accept({ id: new URL(`#accept/${++seq}`, me), actor: me, object: follow }),
      );
    })
    .on(Undo, async (ctx, undo) => {
      const follow = await undo.getObject(ctx);
      const target = follow instanceof Follow && follow.objectId ? ctx.parseUri(follow.objectId) : null;
      if (target?.type === "actor" && undo.actorId) followers.get(target.identifier)?.delete(undo.actorId.href);
    })
    .on(Create, async (ctx, create) => {
      const note = await create.getObject(ctx);
      if (!(note instanceof Note)) return;
      const mentions: string[] = [];
      for await (const tag of note.getTags(ctx)) if (tag instanceof Mention && tag.href) mentions.push(tag.href.href);
      received.push({ to: ctx.recipient ?? "", note: note.content?.toString() ?? "", mentions });
    })
    .on(Flag, async (_ctx, flag) => {
      flags.push({
        actor: flag.actorId?.href ?? "",
        objects: flag.objectIds.map((u) => u.href),
        content: flag.content?.toString() ?? "",
      });
    });

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", origin);
    if (/^\/media\/[a-z0-9_]+\.png$/.test(url.pathname)) {
      res.writeHead(200, { "content-type": "image/png", "content-length": PNG.length });
      res.end(PNG);
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    const request = new Request(url, {
      method: req.method,
      headers,
      body: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
    });
    const answer = await federation.fetch(request, {
      contextData: undefined,
      onNotFound: () => new Response("Not found", { status: 404 }),
      onNotAcceptable: () => new Response("Not acceptable", { status: 406 }),
    });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

  return {
    origin,
    host,
    received,
    flags,
    followersOf: (name) => [...(followers.get(name)?.keys() ?? [])],
    async post(name, text, mention) {
      const ctx = federation.createContext(new URL(origin), undefined);
      const actor = ctx.getActorUri(name);
      const id = new URL(`/notes/${name}-${++seq}`, origin);
      const note = new Note({
        id,
        attribution: actor,
        url: id,
        content: `<p>${text}</p>`,
        to: PUBLIC_COLLECTION,
        // Someone on the other server named in it: a Mention tag, and the note goes to them too.
        ...(mention
          ? {
              ccs: [new URL(mention.actor)],
              tags: [new Mention({ href: new URL(mention.actor), name: mention.handle })],
            }
          : {}),
        attachments: [
          new Document({
            url: new URL(`/media/${name}.png`, origin),
            mediaType: "image/png",
            name: `A picture by ${name}`,
          }),
        ],
      });
      const to: Recipient[] = [...(followers.get(name)?.values() ?? [])];
      if (mention) to.push({ id: new URL(mention.actor), inboxId: new URL(mention.inbox), endpoints: null });
      await ctx.sendActivity(
        { identifier: name },
        to,
        new Create({ id: new URL(`#create`, id), actor, object: note, to: PUBLIC_COLLECTION }),
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
