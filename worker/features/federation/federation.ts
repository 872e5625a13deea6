// The Fedify federation: actors, collections, objects, NodeInfo and the inbox, built once per
// isolate as a builder and instantiated per environment (kv and queue are bindings). Loaded only
// by requests that may be ActivityPub and by the queue consumer (federation.routes.ts), so pages
// and the API never pay for parsing it at startup.
import { createFederationBuilder, type Federation } from "@fedify/fedify";
import { Announce, Application, Create, Endpoints, Note, type Recipient, Tombstone } from "@fedify/vocab";
import type { Env } from "../../env";
import { type FedData, INSTANCE } from "./context";
import { actorState, localIdByName, localNote, localNotesPage, localReply, localUser, remotePeoplePage } from "./data";
import { mayFetch } from "./authorized";
import { listenInbox } from "./inbox";
import { instanceKeyPairs, keyPairsOf } from "./keys";
import { D1KvStore } from "./kv";
import { loadersFor } from "./loaders";
import { QueueMessageQueue } from "./queue";
import { mentionedPeople } from "./mentions";
import { toAnnounce, toNote, toReplyNote } from "./objects";
import { personOf } from "./person";
import { replyOfNumber } from "../../lib/ids";

export const SOFTWARE = { name: "notex", version: "0.1.0" };
const USER_AGENT = { software: `${SOFTWARE.name}/${SOFTWARE.version}` };
const PAGE = 20;

const builder = createFederationBuilder<FedData>();

builder
  .setActorDispatcher("/ap/users/{identifier}", async (ctx, identifier) => {
    if (identifier === INSTANCE) {
      const keys = await ctx.getActorKeyPairs(identifier);
      const host = new URL(ctx.canonicalOrigin).host;
      return new Application({
        id: ctx.getActorUri(identifier),
        preferredUsername: host,
        name: host,
        url: new URL(ctx.canonicalOrigin),
        inbox: ctx.getInboxUri(identifier),
        outbox: ctx.getOutboxUri(identifier),
        endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
        publicKey: keys[0]?.cryptographicKey ?? null,
        assertionMethods: keys.map((k) => k.multikey),
        manuallyApprovesFollowers: true,
      });
    }
    const user = /^\d+$/.test(identifier) ? await localUser(ctx.data.env.DB, Number(identifier)) : null;
    // Suspended or deleted: a Tombstone, which Fedify answers 410 Gone (the actor and WebFinger).
    if (!user)
      return /^\d+$/.test(identifier) && (await actorState(ctx.data.env.DB, Number(identifier))) === "gone"
        ? new Tombstone({ id: ctx.getActorUri(identifier) })
        : null;
    return personOf(ctx, identifier, user);
  })
  .setKeyPairsDispatcher((ctx, identifier) =>
    identifier === INSTANCE
      ? instanceKeyPairs(ctx.data.env, ctx.data.env.DB)
      : /^\d+$/.test(identifier)
        ? keyPairsOf(ctx.data.env, ctx.data.env.DB, Number(identifier))
        : [],
  )
  // acct:name@host → the account's id; a renamed account is still found by its former name.
  .mapHandle(async (ctx, username) => {
    const id = await localIdByName(ctx.data.env.DB, username);
    return id === null ? null : String(id);
  })
  // WebFinger also takes the profile page's URL (https://host/name), as Mastodon does.
  .mapAlias(async (ctx, resource) => {
    const name = resource.origin === new URL(ctx.canonicalOrigin).origin && /^\/@?([^/@]+)\/?$/.exec(resource.pathname);
    const id = name ? await localIdByName(ctx.data.env.DB, decodeURIComponent(name[1])) : null;
    return id === null ? null : { identifier: String(id) };
  })
  .authorize((ctx, identifier) => identifier === INSTANCE || mayFetch(ctx));

// "Interact from your server" buttons elsewhere send people here with the remote post or account.
builder.setWebFingerLinksDispatcher((ctx) => [
  {
    rel: "http://ostatus.org/schema/1.0/subscribe",
    template: `${new URL(ctx.canonicalOrigin).origin}/authorize_interaction?uri={uri}`,
  },
]);

const cursorNum = (cursor: string, fallback: number) => (/^\d+$/.test(cursor) ? Number(cursor) : fallback);

builder
  .setFollowersDispatcher("/ap/users/{identifier}/followers", async (ctx, identifier, cursor) => {
    if (cursor === null || !/^\d+$/.test(identifier)) return null;
    const rows = await remotePeoplePage(ctx.data.env.DB, "followers", Number(identifier), cursorNum(cursor, 0), PAGE);
    const items: Recipient[] = rows.map((r) => ({
      id: new URL(r.uri),
      inboxId: new URL(r.inbox),
      endpoints: r.shared_inbox ? { sharedInbox: new URL(r.shared_inbox) } : null,
    }));
    return { items, nextCursor: rows.length < PAGE ? null : String(rows[rows.length - 1].user_id) };
  })
  .setFirstCursor(() => "0")
  .setCounter(async (ctx, identifier) =>
    /^\d+$/.test(identifier) ? ((await localUser(ctx.data.env.DB, Number(identifier)))?.follower_num ?? 0) : 0,
  )
  .authorize(mayFetch);

builder
  .setFollowingDispatcher("/ap/users/{identifier}/following", async (ctx, identifier, cursor) => {
    if (cursor === null || !/^\d+$/.test(identifier)) return null;
    const rows = await remotePeoplePage(ctx.data.env.DB, "following", Number(identifier), cursorNum(cursor, 0), PAGE);
    return {
      items: rows.map((r) => new URL(r.uri)),
      nextCursor: rows.length < PAGE ? null : String(rows[rows.length - 1].user_id),
    };
  })
  .setFirstCursor(() => "0")
  .setCounter(async (ctx, identifier) =>
    /^\d+$/.test(identifier) ? ((await localUser(ctx.data.env.DB, Number(identifier)))?.following_num ?? 0) : 0,
  )
  .authorize(mayFetch);

builder
  .setOutboxDispatcher("/ap/users/{identifier}/outbox", async (ctx, identifier, cursor) => {
    if (cursor === null || !/^\d+$/.test(identifier)) return null;
    const rows = await localNotesPage(ctx.data.env.DB, Number(identifier), cursorNum(cursor, 2 ** 53), PAGE);
    const items = rows
      .map((row) => {
        const note = toNote(ctx, row);
        if (note)
          return new Create({
            id: new URL(`${note.id?.href}#create`),
            actor: note.attributionId,
            object: note,
            tos: note.toIds,
            ccs: note.ccIds,
            published: note.published,
          });
        return toAnnounce(ctx, row);
      })
      .filter((a) => a !== null);
    return { items, nextCursor: rows.length < PAGE ? null : String(rows[rows.length - 1].id) };
  })
  .setFirstCursor(() => "")
  .setCounter(async (ctx, identifier) =>
    /^\d+$/.test(identifier) ? ((await localUser(ctx.data.env.DB, Number(identifier)))?.note_num ?? 0) : 0,
  )
  .authorize(mayFetch);

builder
  .setObjectDispatcher(Note, "/ap/notes/{id}", async (ctx, { id }) => {
    const reply = /^r(\d+)$/.exec(id);
    if (reply) {
      const row = await localReply(ctx.data.env.DB, replyOfNumber(Number(reply[1])));
      return row ? toReplyNote(ctx, row, await mentionedPeople(ctx.data.env.DB, row.content)) : null;
    }
    if (!/^\d+$/.test(id)) return null;
    const row = await localNote(ctx.data.env.DB, Number(id));
    return row ? toNote(ctx, row, await mentionedPeople(ctx.data.env.DB, row.content)) : null;
  })
  .authorize(mayFetch);

builder
  .setObjectDispatcher(Announce, "/ap/users/{uid}/renotes/{note}", async (ctx, { uid, note }) => {
    // {note}.{row} (objects.ts announceUri), or {note} alone as Announces were first named.
    const m = /^(\d+)(?:\.(\d+))?$/.exec(note);
    if (!/^\d+$/.test(uid) || !m) return null;
    const row = await ctx.data.env.DB.prepare(
      "select id from notes where user_id = ?1 and renote_id = ?2 and kind = 1 and (?3 is null or id = ?3)",
    )
      .bind(Number(uid), Number(m[1]), m[2] ? Number(m[2]) : null)
      .first<{ id: number }>();
    const renote = row ? await localNote(ctx.data.env.DB, row.id) : null;
    return renote ? toAnnounce(ctx, renote) : null;
  })
  .authorize(mayFetch);

listenInbox(builder);

/**
 * Answers that end a delivery at once, as Mastodon's (any 4xx but 401, 408 and 429, which may pass:
 * a key being refetched, a timeout, a rate limit; and 501). Fedify's default is only 404 and 410, so
 * a server that refuses us with 403 (it blocked us) would be retried for days.
 */
const FINAL_STATUS = [
  ...Array.from({ length: 100 }, (_, i) => 400 + i).filter((s) => ![401, 408, 429].includes(s)),
  501,
];

/** How far a signature's Date (or created) may be from now, here and in the inbox's own check (inbox-guard.ts). */
export const SIGNATURE_WINDOW = { hours: 1 };

/** The federation for one environment: its D1 as the key-value store, its Queue for deliveries. */
export async function federationFor(env: Env): Promise<Federation<FedData>> {
  const kv = new D1KvStore(env.DB);
  return builder.build({
    kv,
    queue: env.FED_QUEUE ? new QueueMessageQueue(env.FED_QUEUE) : undefined,
    // Never listen: the queue() handler hands each message to processQueuedTask.
    manuallyStartQueue: true,
    origin: env.APP_ORIGIN || undefined,
    // Local instances federate over plain HTTP on loopback; everywhere else private addresses are
    // refused (SSRF) by the loaders (loaders.ts), which never fetch a JSON-LD context.
    signatureTimeWindow: SIGNATURE_WINDOW,
    permanentFailureStatusCodes: FINAL_STATUS,
    // Fedify's defaults (5 failures within 10 minutes open a server's circuit for 30 minutes;
    // held deliveries wait up to 7 days), with every change and drop in the logs.
    circuitBreaker: {
      onStateChange: (host, from, to) => console.error(JSON.stringify({ t: "federation.circuit", host, from, to })),
      onActivityDrop: (host, drop) =>
        console.error(JSON.stringify({ t: "federation.circuit.drop", host, activity: drop.activityId ?? null })),
    },
    ...loadersFor(env, kv, USER_AGENT),
  });
}
