// The Mastodon streaming API and the pages' live socket, through the worker's fetch handler: a
// Durable Object hub holds each socket, a post fans out to the online followers after the answer.
import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { createStreamingAPIClient, type mastodon } from "masto";
import { describe, expect, it } from "vitest";
import type { LiveHub } from "../../worker/features/live/hub";
import { hubOf, publisherOf } from "../../worker/features/live/shards";
import { readSession } from "../../worker/lib/sessions";
import type { Env } from "../../worker/env";
import type { SocketInfo } from "../../worker/features/live/streams";
import { type TestUser, user } from "../factories";
import { Client } from "../http";
import { type Frame, openSocket, WorkerWebSocket } from "../live";
import { appToken, masto } from "../mastodon";

const post = async (who: TestUser, text: string) =>
  (await who.post("/v1/notes", { label: "idea", content: `<p>${text}</p>` })).body.note.id as number;

const isUpdate = (text: string) => (f: Frame) =>
  f.event === "update" && JSON.parse(f.payload ?? "{}").content?.includes(text);

/** A masto.js subscription read in the background: `next()` answers its events in order (null after `ms`). */
function pump(sub: AsyncIterable<mastodon.streaming.Event>) {
  const events: mastodon.streaming.Event[] = [];
  let taken = 0;
  (async () => {
    for await (const e of sub) events.push(e);
  })();
  return {
    async next(ms = 2000) {
      const end = Date.now() + ms;
      while (events.length <= taken && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
      return events.length > taken ? events[taken++] : null;
    },
  };
}

/** Waits until one of `uid`'s sockets holds `key` (an app subscribes once its socket is open). */
async function subscribed(uid: number, key: string) {
  for (let i = 0; i < 200; i++) {
    const held = await runInDurableObject(hubOf(env as unknown as Env, uid), (_, state) =>
      state.getWebSockets(`u:${uid}`).some((ws) => (ws.deserializeAttachment() as SocketInfo).subs.includes(key)),
    );
    if (held) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no socket of ${uid} subscribed to ${key}`);
}

/** How many D1 statements a publisher runs to fan out `alice`'s note `id` (its env's DB watched). */
const publisherReads = (uid: number, id: number) =>
  runInDurableObject(publisherOf(env as unknown as Env, uid), async (hub: LiveHub) => {
    const held = hub as unknown as { env: Env };
    const real = held.env;
    let statements = 0;
    const DB = new Proxy(real.DB, {
      get(db, key) {
        const value = Reflect.get(db, key, db);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (key === "prepare") statements++;
          return value.apply(db, args);
        };
      },
    });
    held.env = { ...real, DB };
    try {
      await hub.publish({ notex: "note", op: "create", uid, id, origin: "http://notex.test" });
    } finally {
      held.env = real;
    }
    return statements;
  });

// First in the file: no socket is open anywhere yet.
describe("the publisher", () => {
  it("reads nothing from D1 while no socket is open anywhere, and fans out once one is", async () => {
    const [alice, bob] = [await user(), await user()];
    await bob.post(`/v1/follows/${alice.id}`);
    const id = await post(alice, "to nobody yet");
    expect(await publisherReads(alice.id, id)).toBe(0);
    const { socket } = await openSocket("/v1/live", { cookie: bob.cookie ?? "", origin: "http://notex.test" });
    expect(await publisherReads(alice.id, id)).toBeGreaterThan(0);
    expect(await socket?.next(isUpdate("to nobody yet"))).not.toBeNull();
    socket?.close();
  });
});

describe("Mastodon streaming API", () => {
  it("is announced by the instance and says OK", async () => {
    const c = new Client();
    expect((await c.get("/api/v1/streaming/health")).body).toBe("OK");
    expect((await c.get("/api/v1/instance")).body.urls.streaming_api).toBe("ws://notex.test");
    expect((await c.get("/api/v2/instance")).body.configuration.urls.streaming).toBe("ws://notex.test");
    // Without an upgrade, and without a token, it refuses.
    expect((await c.get("/api/v1/streaming")).status).toBe(400);
    expect((await openSocket("/api/v1/streaming?stream=user")).res.status).toBe(401);
  });

  it("masto.js receives update, notification and delete on the user stream within 2 s", async () => {
    const [alice, bob] = [await user(), await user()];
    const { token } = await appToken(bob, "read write follow");
    await bob.post(`/v1/follows/${alice.id}`);
    const streaming = createStreamingAPIClient({
      streamingApiUrl: "ws://notex.test",
      accessToken: token,
      implementation: WorkerWebSocket,
      retry: false,
    });
    const sub = pump(streaming.user.subscribe());
    await subscribed(bob.id, "user");

    const id = await post(alice, "live from alice");
    const update = await sub.next();
    expect(update?.event).toBe("update");
    expect(update?.payload).toMatchObject({ id: String(id), account: { id: String(alice.id) } });
    // A new note notifies its author's followers here (NoteX's "status" notice).
    const notice = await sub.next();
    expect(notice?.event).toBe("notification");
    expect(notice?.payload).toMatchObject({ type: "status", account: { id: String(alice.id) } });

    expect((await alice.delete(`/v1/notes/${id}`)).status).toBe(200);
    const gone = await sub.next();
    expect(gone).toMatchObject({ event: "delete", payload: String(id) });

    const mine = await post(bob, "bob's own");
    expect((await sub.next())?.event).toBe("update");
    await alice.post(`/v1/likes/${mine}?t=note`);
    const liked = await sub.next();
    expect(liked?.event).toBe("notification");
    expect(liked?.payload).toMatchObject({ type: "favourite", account: { id: String(alice.id) } });
    streaming.close();
  });

  it("sends each online follower a post's notice with their own id, rendered once for all of them", async () => {
    const alice = await user();
    // Consecutive accounts live in different shards: the notice's ids are split with its people.
    const readers = [await user(), await user()];
    const sockets = [];
    for (const r of readers) {
      await r.post(`/v1/follows/${alice.id}`);
      const { token } = await appToken(r, "read");
      sockets.push({ token, socket: (await openSocket(`/api/v1/streaming?access_token=${token}&stream=user`)).socket });
    }
    await post(alice, "one notice each");
    for (const { token, socket } of sockets) {
      const frame = await socket?.next((f) => f.event === "notification");
      const notice = JSON.parse(frame?.payload ?? "{}");
      const [listed] = await masto(token).v1.notifications.list({ limit: 1 });
      expect(notice).toMatchObject({ id: listed.id, group_key: `ungrouped-${listed.id}`, type: "status" });
      expect(notice.account.id).toBe(String(alice.id));
      socket?.close();
    }
  }, 60_000);

  it("takes the token as the subprotocol (echoed) and subscribes by message", async () => {
    const [alice, bob] = [await user(), await user()];
    const { token } = await appToken(bob, "read");
    const { res, socket } = await openSocket("/api/v1/streaming", { "Sec-WebSocket-Protocol": token });
    expect(res.status).toBe(101);
    expect(res.headers.get("sec-websocket-protocol")).toBe(token);
    socket?.send({ type: "subscribe", stream: "public:local" });
    socket?.send({ type: "subscribe", stream: "hashtag", tag: "Rust" });
    socket?.send({ type: "subscribe", stream: "nonsense" });
    expect(await socket?.next((f) => !!f.error, 5000)).toMatchObject({ error: "Unknown stream type", status: 400 });
    await subscribed(bob.id, "hashtag|rust");
    await post(alice, "tagged #rust");
    expect((await socket?.next(isUpdate("tagged")))?.stream).toEqual(["public:local"]);
    expect(await socket?.next((f) => f.stream?.[0] === "hashtag")).toMatchObject({ stream: ["hashtag", "rust"] });
    socket?.send({ type: "unsubscribe", stream: "public:local" });
    await new Promise((r) => setTimeout(r, 100));
    const before = socket?.frames.length ?? 0;
    await post(alice, "no tag this time");
    expect(
      await socket?.next((f, i = socket.frames.indexOf(f)) => i >= before && isUpdate("no tag")(f), 500),
    ).toBeNull();
    socket?.close();
  });

  it("checks scopes: a write-only token is refused, a notifications-only one gets no statuses", async () => {
    const bob = await user();
    const { token: writeOnly } = await appToken(bob, "write");
    expect((await openSocket(`/api/v1/streaming?access_token=${writeOnly}&stream=user`)).res.status).toBe(401);
    const { token: notes } = await appToken(bob, "read:notifications");
    expect((await openSocket(`/api/v1/streaming?access_token=${notes}&stream=user`)).res.status).toBe(401);
    const { res } = await openSocket(`/api/v1/streaming?access_token=${notes}&stream=user:notification`);
    expect(res.status).toBe(101);
  });

  it("never streams a blocked or muted author's post, on the user stream or a public one", async () => {
    const [muted, blocked, fine, reader] = [await user(), await user(), await user(), await user()];
    for (const a of [muted, blocked, fine]) await reader.post(`/v1/follows/${a.id}`);
    const { token } = await appToken(reader, "read");
    const { socket: home } = await openSocket(`/api/v1/streaming?access_token=${token}&stream=user`);
    const { socket: pub } = await openSocket(`/api/v1/streaming?access_token=${token}&stream=public`);
    await reader.post(`/v1/mutes/${muted.id}`);
    await reader.post(`/v1/blocks/${blocked.id}`);
    await post(muted, "from the muted");
    await post(blocked, "from the blocked");
    await post(fine, "from the fine");
    expect(await home?.next(isUpdate("from the fine"))).not.toBeNull();
    expect(await pub?.next(isUpdate("from the fine"))).not.toBeNull();
    for (const s of [home, pub]) {
      expect(s?.frames.filter(isUpdate("from the muted"))).toEqual([]);
      expect(s?.frames.filter(isUpdate("from the blocked"))).toEqual([]);
    }
  });

  it("sends status.update with the edited status when a followed person edits a post", async () => {
    const [alice, bob] = [await user(), await user()];
    await bob.post(`/v1/follows/${alice.id}`);
    const { token } = await appToken(bob, "read");
    const { socket } = await openSocket(`/api/v1/streaming?access_token=${token}&stream=user`);
    const id = await post(alice, "first words");
    expect(await socket?.next(isUpdate("first words"))).not.toBeNull();
    const edited = await alice.patch("/v1/notes", { id, label: "idea", content: "<p>second words</p>" });
    expect(edited.status).toBe(200);
    const frame = await socket?.next((f) => f.event === "status.update");
    expect(JSON.parse(frame?.payload ?? "{}")).toMatchObject({ id: String(id) });
    expect(JSON.parse(frame?.payload ?? "{}").content).toContain("second words");
    expect(JSON.parse(frame?.payload ?? "{}").edited_at).not.toBeNull();
    socket?.close();
  });

  it("takes a post a moderator hides off the streams it reached, and streams nothing of it after", async () => {
    const [alice, bob, mod] = [await user(), await user(), await user()];
    await (env as unknown as Env).DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
    await bob.post(`/v1/follows/${alice.id}`);
    const { token } = await appToken(bob, "read");
    const { socket: home } = await openSocket(`/api/v1/streaming?access_token=${token}&stream=user`);
    const { socket: pub } = await openSocket(`/api/v1/streaming?access_token=${token}&stream=public:local`);
    const id = await post(alice, "soon hidden");
    for (const s of [home, pub]) expect(await s?.next(isUpdate("soon hidden"))).not.toBeNull();
    const hidden = await mod.post("/v1/moderation/actions", { kind: "note", id, action: "hide", reason: "Spam" });
    expect(hidden.status).toBe(200);
    // As Mastodon removes a status its moderators take down: a delete on every stream it reached.
    for (const s of [home, pub])
      expect(await s?.next((f) => f.event === "delete" && f.payload === String(id))).not.toBeNull();
    // Hidden, an edit by its author reaches no one.
    await alice.patch("/v1/notes", { id, label: "idea", content: "<p>edited while hidden</p>" });
    await post(alice, "after the edit");
    expect(await home?.next(isUpdate("after the edit"))).not.toBeNull();
    for (const s of [home, pub]) expect(s?.frames.filter((f) => f.event === "status.update")).toEqual([]);
    home?.close();
    pub?.close();
  });

  it("closes a socket as soon as its token is revoked; the hub's periodic check is only a safety net", async () => {
    const bob = await user();
    const { app, token } = await appToken(bob, "read");
    const { token: other } = await appToken(bob, "read");
    const { socket } = await openSocket(`/api/v1/streaming?access_token=${token}&stream=user`);
    const { socket: kept } = await openSocket(`/api/v1/streaming?access_token=${other}&stream=user`);
    const revoke = await new Client().post("/oauth/revoke", {
      client_id: app.clientId,
      client_secret: app.clientSecret,
      token,
    });
    expect(revoke.status).toBe(200);
    // The revoke tells the person's hub: closed now, without waiting for the hub's alarm.
    expect(await socket?.waitClosed()).toMatchObject({ code: 1008 });
    expect(kept?.closed).toBeNull();

    // A session that ended where no hub was told (its key gone from KV) is found by the alarm.
    const { socket: stray } = await openSocket(`/api/v1/streaming?access_token=${other}&stream=user`);
    const sid = (await readSession((env as unknown as Env).SESSIONS, other))?.id ?? "";
    await (env as unknown as Env).SESSIONS.delete(`session:${bob.id}:${sid}`);
    expect(await runDurableObjectAlarm(hubOf(env as unknown as Env, bob.id))).toBe(true);
    expect(await stray?.waitClosed()).toMatchObject({ code: 1008 });
    expect(await kept?.waitClosed()).toMatchObject({ code: 1008 });
  });
});

describe("a page's live socket", () => {
  it("opens with the page's cookie from the site's own origin only", async () => {
    const [alice, bob] = [await user(), await user()];
    await bob.post(`/v1/follows/${alice.id}`);
    const cookie = bob.cookie ?? "";
    expect((await openSocket("/v1/live", { cookie, origin: "https://evil.example" })).res.status).toBe(403);
    expect((await openSocket("/v1/live", { origin: "http://notex.test" })).res.status).toBe(401);
    const { socket } = await openSocket("/v1/live", { cookie, origin: "http://notex.test" });
    const id = await post(alice, "for the page");
    expect(await socket?.next(isUpdate("for the page"))).not.toBeNull();
    // An open note page follows its thread: replies and counts arrive.
    socket?.send({ type: "subscribe", stream: "note", tag: String(id) });
    await new Promise((r) => setTimeout(r, 100));
    await alice.post(`/v1/likes/${id}?t=note`);
    const counts = await socket?.next((f) => f.event === "notex.counts");
    // Each names who moved it: that person's own page already shows the change and reads nothing.
    expect(JSON.parse(counts?.payload ?? "{}")).toMatchObject({ id, likes: 1, by: alice.id });
    expect((await alice.delete(`/v1/notes/${id}`)).status).toBe(200);
    const gone = await socket?.next((f) => f.event === "notex.gone");
    expect(JSON.parse(gone?.payload ?? "{}")).toEqual({ by: alice.id });
  });
});
