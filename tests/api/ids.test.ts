// Ids made in the worker: a note's or reply's id is known before its batch, sorts by time, and the
// two tables share one id space, so a Mastodon status id is the row's own id, whichever table holds
// it; rows made before worker ids keep theirs, and lists page across both.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { MERGE_MAX } from "../../worker/features/feed/feed.service";
import { PAGE_SIZE } from "../../worker/lib/paging";
import { user } from "../factories";
import { appToken } from "../mastodon";

const EPOCH = Date.UTC(2025, 0, 1);

describe("ids made in the worker", () => {
  it("a reply's id tells when it was made, grows with time, stays exact in a JS number and apart from every note id", async () => {
    const author = await user();
    const note = (await author.post("/v1/notes", { label: "idea", content: "<p>ids</p>" })).body.note.id as number;
    const before = Date.now();
    const first = (await author.post("/v1/replies", { parent: -note, content: "<p>one</p>" })).body;
    const second = (await author.post("/v1/replies", { parent: first.id, content: "<p>two</p>" })).body;
    const after = Date.now();
    for (const r of [first, second]) {
      expect(Number.isSafeInteger(r.id)).toBe(true);
      expect(r.id).toBeGreaterThan(2 ** 47);
      const madeAt = Math.floor(r.id / 4096) + EPOCH;
      expect(madeAt).toBeGreaterThanOrEqual(before - 5);
      expect(madeAt).toBeLessThanOrEqual(after + 5);
    }
    expect(second.id).toBeGreaterThan(first.id);
    expect(second.parent).toBe(first.id);
    // Notes' ids come from the worker too, in the same space: even where a reply's is odd.
    expect(note % 2).toBe(0);
    for (const r of [first, second]) expect(r.id % 2).toBe(1);
  });

  it("a status id is its row's id, for notes and replies alike, and in_reply_to_id names the row answered", async () => {
    const p = await user();
    const { client } = await appToken(p, "read write");
    const s = await client.v1.statuses.create({ status: "A note from an app" });
    const web = await p.get(`/v1/notes/${s.id}`);
    expect(web.status).toBe(200);
    expect(String(web.body.id)).toBe(s.id);
    const r = await client.v1.statuses.create({ status: "Its reply", inReplyToId: s.id });
    expect(r.inReplyToId).toBe(s.id);
    const rr = await client.v1.statuses.create({ status: "A reply to the reply", inReplyToId: r.id });
    expect(rr.inReplyToId).toBe(r.id);
    const chain = (await p.get(`/v1/replies/${rr.id}/username/${p.username}`)).body;
    expect(chain.replies.map((x: { id: number }) => String(x.id))).toEqual([r.id, rr.id]);
    const context = await client.v1.statuses.$select(rr.id).context.fetch();
    expect(context.ancestors.map((x) => x.id)).toEqual([s.id, r.id]);
  });

  it("a note's id is made in the worker too: time-ordered, exact in a JS number, even where a reply's is odd", async () => {
    const author = await user();
    const before = Date.now();
    const made: number[] = [];
    for (const text of ["one", "two", "three"])
      made.push((await author.post("/v1/notes", { label: "idea", content: `<p>${text}</p>` })).body.note.id);
    expect((await author.post("/v1/renotes", { renote_id: made[0], content: "<p>quoted</p>" })).status).toBe(201);
    const after = Date.now();
    const reply = (await author.post("/v1/replies", { parent: -made[2], content: "<p>r</p>" })).body.id as number;
    for (const id of made) {
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(id).toBeGreaterThan(2 ** 47);
      expect(id % 2).toBe(0);
      const madeAt = Math.floor(id / 4096) + EPOCH;
      expect(madeAt).toBeGreaterThanOrEqual(before - 5);
      expect(madeAt).toBeLessThanOrEqual(after + 5);
    }
    expect([...made].sort((a, b) => a - b)).toEqual(made);
    expect(reply % 2).toBe(1);
    const quote = await env.DB.prepare("select id from notes where user_id = ? and renote_id = ?")
      .bind(author.id, made[0])
      .first<{ id: number }>();
    expect(quote?.id).toBeGreaterThan(made[2]);
    expect((quote?.id ?? 1) % 2).toBe(0);
  });

  it("Mastodon reads a note and a reply at their row ids, old and new; the author's statuses page across both", async () => {
    const p = await user();
    const { client } = await appToken(p, "read write");
    // Two notes and a reply made before worker ids: SQLite's small note ids, a reply moved to 2^40 + n.
    const low =
      ((
        await env.DB.prepare("select max(id) m from notes where id < ?")
          .bind(2 ** 40)
          .first<{ m: number }>()
      )?.m ?? 0) + 1;
    const old = [low, low + 1];
    for (const [i, id] of old.entries())
      await env.DB.prepare(
        "insert into notes (id, user_id, label, content, txt, created_at, noted_at) values (?1, ?2, 'idea', ?3, 'old', ?4, ?4)",
      )
        .bind(id, p.id, `<p>old ${i}</p>`, Date.now() - 10_000 + i)
        .run();
    await env.DB.prepare("update users set note_num = note_num + 2 where id = ?").bind(p.id).run();
    const oldReply = 2 ** 40 + low;
    await env.DB.prepare(
      "insert into replies (id, user_id, note_id, content, txt) values (?, ?, ?, '<p>old r</p>', 'old r')",
    )
      .bind(oldReply, p.id, old[1])
      .run();
    const fresh: string[] = [];
    for (const text of ["new 0", "new 1", "new 2"]) fresh.push((await client.v1.statuses.create({ status: text })).id);
    const freshReply = await client.v1.statuses.create({ status: "new reply", inReplyToId: String(oldReply) });
    expect(freshReply.inReplyToId).toBe(String(oldReply));
    for (const id of [...old.map(String), String(oldReply), ...fresh, freshReply.id]) {
      const s = await client.v1.statuses.$select(id).fetch();
      expect(s.id).toBe(id);
    }
    expect((await client.v1.statuses.$select(String(oldReply)).fetch()).inReplyToId).toBe(String(old[1]));
    const paged: string[] = [];
    for await (const page of client.v1.accounts.$select(String(p.id)).statuses.list({ limit: 2, excludeReplies: true }))
      paged.push(...page.map((s) => s.id));
    expect(paged).toEqual([...fresh].reverse().concat(old.map(String).reverse()));
  });

  it("the following feed's walk fills its pages when the notes' ids are made in the worker (sparse)", async () => {
    const reader = await user();
    const authors = [];
    for (let i = 0; i <= MERGE_MAX; i++) authors.push(await user());
    for (const a of authors) expect((await reader.post(`/v1/follows/${a.id}`)).status).toBe(200);
    const posted: number[] = [];
    for (const a of authors)
      posted.push((await a.post("/v1/notes", { label: "idea", content: `<p>by ${a.username}</p>` })).body.note.id);
    const first = await reader.get("/v1/feeds");
    expect(first.status).toBe(200);
    const newest = [...posted].reverse();
    expect(first.body.notes.map((n: { id: number }) => n.id)).toEqual(newest.slice(0, PAGE_SIZE));
    const second = await reader.get(`/v1/feeds?page=2&cursor=${first.body.cursor}`);
    expect(second.body.notes.map((n: { id: number }) => n.id)).toEqual(newest.slice(PAGE_SIZE, 2 * PAGE_SIZE));
  });
});
