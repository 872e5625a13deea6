// Ids made in the worker: a reply's id is known before its batch, sorts by time, and shares one id
// space with notes, so a Mastodon status id is the row's own id, whichever table holds it.
import { describe, expect, it } from "vitest";
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
    // The notice of the reply names it (the id known before the batch, not looked up after it).
    expect(note).toBeLessThan(2 ** 40);
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
});
