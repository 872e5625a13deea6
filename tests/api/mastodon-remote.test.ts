// People and posts from other servers as Mastodon apps expect them: `username` is the name alone
// (the server belongs in `acct`), the account's url and uri are the original's, a remote post has
// no tag NoteX made up and names whom it mentions, and a local status's uri is its ActivityPub id.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { user } from "../factories";
import { Client } from "../http";
import { appToken } from "../mastodon";

/** A person from remote.example with one note, stored as the inbox stores them. */
async function remotePerson() {
  const name = `farah${Date.now().toString(36)}`;
  const actor = `https://remote.example/users/${name}`;
  const row = await env.DB.prepare("insert into users (username, email, fullname) values (?, ?, ?) returning id")
    .bind(`${name}@remote.example`, actor, "Farah Remote")
    .first<{ id: number }>();
  const id = row?.id ?? 0;
  await env.DB.prepare(
    "insert into remote_actors (user_id, uri, host, inbox, url, fetched_at) values (?, ?, 'remote.example', ?, ?, ?)",
  )
    .bind(id, actor, `${actor}/inbox`, `https://remote.example/@${name}`, Date.now())
    .run();
  const published = Date.parse("2026-01-02T03:04:05Z");
  const note = await env.DB.prepare(
    "insert into notes (user_id, label, content, txt, created_at, noted_at) values (?, 'fediverse', '<p>Hello from afar #travel</p>', 'Hello from afar #travel', ?, ?) returning id",
  )
    .bind(id, published, published)
    .first<{ id: number }>();
  return { id, name, actor, note: note?.id ?? 0, published };
}

describe("Mastodon API: remote people and posts", () => {
  it("names a remote account by its name, with the server in acct, its profile page as url and its actor as uri", async () => {
    const remote = await remotePerson();
    const reader = new Client();
    reader.token = (await appToken(await user(), "read")).token;
    const acc = await reader.get(`/api/v1/accounts/${remote.id}`);
    expect(acc.status).toBe(200);
    expect(acc.body.username).toBe(remote.name);
    expect(acc.body.acct).toBe(`${remote.name}@remote.example`);
    // Their profile page on their server (the actor's url); the actor is the uri.
    expect(acc.body.url).toBe(`https://remote.example/@${remote.name}`);
    expect(acc.body.uri).toBe(remote.actor);

    const status = await reader.get(`/api/v1/statuses/${remote.note}`);
    expect(status.status).toBe(200);
    expect(status.body.account.username).toBe(remote.name);
    expect(status.body.account.acct).toBe(`${remote.name}@remote.example`);
    // Its own hashtag, not the x-label NoteX files remote posts under.
    expect(status.body.tags.map((t: { name: string }) => t.name)).toEqual(["travel"]);
    expect(status.body.created_at).toBe(new Date(remote.published).toISOString());
  });

  it("fills a status's mentions with each person it mentions, here and elsewhere", async () => {
    const remote = await remotePerson();
    const [author, named] = [await user(), await user()];
    const app = new Client();
    app.token = (await appToken(author, "read write")).token;
    const s = await app.post("/api/v1/statuses", {
      status: `hi @${named.username} and @${remote.name}@remote.example`,
    });
    expect(s.status).toBe(200);
    const want = [
      {
        id: String(named.id),
        username: named.username,
        acct: named.username,
        url: `http://notex.test/${named.username}`,
      },
      {
        id: String(remote.id),
        username: remote.name,
        acct: `${remote.name}@remote.example`,
        url: `https://remote.example/@${remote.name}`,
      },
    ];
    expect(s.body.mentions).toEqual(want);
    const read = await app.get(`/api/v1/statuses/${s.body.id}`);
    expect(read.body.mentions).toEqual(want);
    // A reply names whom it mentions too, and a reblog's original keeps its own.
    const reply = await app.post("/api/v1/statuses", { status: `@${named.username} again`, in_reply_to_id: s.body.id });
    expect(reply.body.mentions).toEqual([want[0]]);
    const boost = await app.post(`/api/v1/statuses/${s.body.id}/reblog`);
    expect(boost.body.reblog.mentions).toEqual(want);
    const none = await app.post("/api/v1/statuses", { status: "nobody here" });
    expect(none.body.mentions).toEqual([]);
  });

  it("gives a local status its ActivityPub id as uri and its page as url", async () => {
    const p = await user();
    const app = new Client();
    app.token = (await appToken(p, "read write")).token;
    const s = await app.post("/api/v1/statuses", { status: "Local and proud" });
    const id = Number(s.body.id);
    expect(s.body.uri).toBe(`http://notex.test/ap/notes/${id}`);
    expect(s.body.url).toBe(`http://notex.test/${p.username}/note/${id}`);
    const local = await app.get(`/api/v1/accounts/${p.id}`);
    expect(local.body.username).toBe(p.username);
    expect(local.body.acct).toBe(p.username);
  });
});
