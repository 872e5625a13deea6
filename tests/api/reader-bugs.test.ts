// Bugs a reader of the code found: each case failed before its fix, through HTTP on real migrations.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { wrongCounters } from "../counters";
import { type TestUser, user, users, visitor } from "../factories";
import { Client } from "../http";
import { appToken } from "../mastodon";
import { interleave } from "../worker";

const count = async (q: string, ...args: unknown[]) =>
  (await env.DB.prepare(q)
    .bind(...args)
    .first<{ n: number }>())!.n;

async function note(u: TestUser, content: string, extra: Record<string, unknown> = {}) {
  const res = await u.post("/v1/notes", { label: "idea", content, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.note.id as number;
}

describe("a report on content that was then deleted", () => {
  it("can be dismissed, and leaves the open queue", async () => {
    const [author, reporter, mod] = await users(3);
    await env.DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
    const id = await note(author, "<p>reported then deleted</p>");
    expect((await reporter.post("/v1/reports", { nid: id, kind: 1 })).status).toBe(201);
    expect((await author.delete(`/v1/notes/${id}`)).status).toBe(200);
    const res = await mod.post("/v1/moderation/actions", { kind: "note", id, action: "dismiss", reason: "Gone" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const open = (await mod.get("/v1/moderation/reports?status=open&page=1")).body.reports;
    expect(open.filter((r: { kind: string; id: number }) => r.kind === "note" && r.id === id)).toEqual([]);
    // Acting on what is gone is still refused for everything but closing its reports.
    const hide = await mod.post("/v1/moderation/actions", { kind: "note", id, action: "hide", reason: "Gone" });
    expect(hide.status).toBe(404);
  });
});

describe("a folder like's notification", () => {
  it("links to the folder's page", async () => {
    const [owner, fan] = await users(2);
    const folder = (await owner.post("/v1/folders", { type: "Company", name: "Acme Labs", descr: "", link: "" })).body;
    expect((await fan.post(`/v1/likes/${folder.id}?t=company`)).status).toBe(200);
    const notis = (await owner.get("/v1/notifications?page=1")).body.notis;
    const like = notis.find((n: { action: string }) => n.action === "like");
    expect(like.href).toBe(`/${owner.username}/x/${folder.slug}`);
  });
});

describe("RSS for a label or tag containing %", () => {
  it("answers the feed", async () => {
    const a = await user();
    const label = `100% ${Date.now().toString(36)}`;
    await note(a, "<p>all of it</p>", { label });
    const res = await visitor().get(`/xlabel/${encodeURIComponent(label)}/rss`);
    expect(res.status).toBe(200);
    expect(res.body).toContain("<title>all of it</title>");
    expect((await visitor().get("/tag/100%25/rss")).status).toBe(200);
    // An address that is not percent-encoding at all is still a 404.
    expect((await visitor().get("/xlabel/%E0%A4%A/rss")).status).toBe(404);
  });
});

describe("saving a note unchanged", () => {
  it("adds no history version and no edited mark, with hashtags and mentions in it", async () => {
    const [a, b] = await users(2);
    const id = await note(a, `<p>see #plans with @${b.username}</p>`);
    const stored = (await a.get(`/v1/notes/${id}`)).body;
    expect(stored.content).toContain('class="hashtag"');
    expect(stored.content).toContain('class="mention"');
    const res = await a.patch("/v1/notes", { id, label: stored.label, content: stored.content });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = (await a.get(`/v1/notes/${id}`)).body;
    expect(after.content).toBe(stored.content);
    expect(after.edited_at).toBeNull();
    expect(await count("select count(*) n from note_versions where note_id = ?", id)).toBe(0);
    // The editor's own copy (its links carry other attributes) is the same text too.
    const fromEditor = stored.content.replaceAll("<a ", '<a target="_blank" rel="noopener noreferrer nofollow" ');
    await a.patch("/v1/notes", { id, label: stored.label, content: fromEditor });
    expect((await a.get(`/v1/notes/${id}`)).body.edited_at).toBeNull();
    // A real change is still an edit.
    await a.patch("/v1/notes", { id, label: stored.label, content: `<p>see #plans with @${b.username}!</p>` });
    expect((await a.get(`/v1/notes/${id}`)).body.edited_at).not.toBeNull();
    expect(await count("select count(*) n from note_versions where note_id = ?", id)).toBe(1);
  });
});

describe("a quote whose counting batch fails", () => {
  it("does not stay, uncounted", async () => {
    const [author, quoter] = await users(2);
    const original = await note(author, "<p>quote me</p>");
    // A fault in the quote's second write: its notification to the original's author is refused.
    await env.DB.prepare(
      `create trigger fail_quote before insert on notifications when new.action = 'quote' and new.actor_id = ${quoter.id}
       begin select raise(abort, 'injected failure'); end`,
    ).run();
    try {
      const res = await quoter.post("/v1/renotes", { renote_id: original, content: "<p>so true</p>" });
      expect(res.status).toBe(500);
    } finally {
      await env.DB.prepare("drop trigger fail_quote").run();
    }
    expect(await count("select count(*) n from notes where user_id = ?", quoter.id)).toBe(0);
    expect(await wrongCounters()).toEqual([]);
  });
});

describe("deleting a folder while a note is filed into it", () => {
  it("never leaves likenum without its like rows", async () => {
    const [owner, fan] = await users(2);
    const folder = (await owner.post("/v1/folders", { type: "Skill", name: "Racing", descr: "", link: "" })).body;
    await fan.post(`/v1/likes/${folder.id}?t=skill`);
    const filed = await note(owner, "<p>not filed yet</p>");
    // The race, made certain: the note is filed after the delete has read the folder empty and
    // before its batch runs.
    interleave.beforeBatch = async () => {
      const fileIt = await owner.patch("/v1/notes", {
        id: filed,
        label: "idea",
        content: "<p>filed now</p>",
        folders: [folder.id],
      });
      expect(fileIt.status).toBe(200);
    };
    await owner.delete(`/v1/folders/${folder.id}`);
    interleave.beforeBatch = null;
    expect(await count("select count(*) n from folders where id = ?", folder.id)).toBe(1);
    expect(await count("select likenum n from folders where id = ?", folder.id)).toBe(1);
    expect(await count("select count(*) n from likes where target_id = ? and kind = 'skill'", folder.id)).toBe(1);
  });
});

describe("a reply or quote that names the author it answers", () => {
  it("notifies that author once (badge +1, one notification)", async () => {
    const [author, replier] = await users(2);
    const badge = () => count("select noti_num n from users where id = ?", author.id);
    const rows = () => count("select count(*) n from notifications where user_id = ?", author.id);
    const id = await note(author, "<p>thoughts</p>");
    const reply = await replier.post("/v1/replies", { parent: -id, content: `<p>@${author.username} agreed</p>` });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    expect(await badge()).toBe(1);
    expect(await rows()).toBe(1);
    // A reply to the author's reply, naming them, is one notice too.
    const nested = await author.post("/v1/replies", { parent: -id, content: "<p>thanks</p>" });
    const again = await replier.post("/v1/replies", {
      parent: nested.body.id,
      content: `<p>@${author.username} sure</p>`,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(await rows()).toBe(2);
    // A quote that names the quoted author: one notice, the quote.
    const quote = await replier.post("/v1/renotes", { renote_id: id, content: `<p>see @${author.username}</p>` });
    expect(quote.status, JSON.stringify(quote.body)).toBe(201);
    expect(await rows()).toBe(3);
    expect(await badge()).toBe(3);
    // Someone else named in the reply is still told.
    const third = await user();
    await replier.post("/v1/replies", { parent: -id, content: `<p>@${author.username} @${third.username} both</p>` });
    expect(await count("select count(*) n from notifications where user_id = ? and action = 'mention'", third.id)).toBe(
      1,
    );
  });
});

describe("deleting an account whose quote and replies a moderator hid", () => {
  it("does not subtract them a second time (counters never negative)", async () => {
    const [author, other, mod] = await users(3);
    await env.DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
    const id = await note(author, "<p>original</p>");
    const quote = (await other.post("/v1/renotes", { renote_id: id, content: "<p>my take</p>" })).body.id as number;
    const reply = (await other.post("/v1/replies", { parent: -id, content: "<p>a reply</p>" })).body.id as number;
    const mine = (await author.post("/v1/replies", { parent: -id, content: "<p>author here</p>" })).body.id as number;
    const nested = (await other.post("/v1/replies", { parent: mine, content: "<p>nested</p>" })).body.id as number;
    for (const [kind, target] of [
      ["note", quote],
      ["reply", reply],
      ["reply", nested],
    ] as const) {
      const res = await mod.post("/v1/moderation/actions", { kind, id: target, action: "hide", reason: "Spam" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    const counts = () =>
      env.DB.prepare("select renum, repnum, (select repnum from replies where id = ?) mine from notes where id = ?")
        .bind(mine, id)
        .first<{ renum: number; repnum: number; mine: number }>();
    expect(await counts()).toEqual({ renum: 0, repnum: 1, mine: 0 });
    const res = await other.request("DELETE", "/v1/users", { password: other.password });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await counts()).toEqual({ renum: 0, repnum: 1, mine: 0 });
    expect(await wrongCounters()).toEqual([]);
  });
});

describe("a like of an x-folder, read by a Mastodon app", () => {
  it("is not a favourite notification without a status", async () => {
    const [owner, fan] = await users(2);
    const { token } = await appToken(owner, "read");
    const app = new Client();
    app.token = token;
    const folder = (await owner.post("/v1/folders", { type: "Skill", name: "Knitting", descr: "", link: "" })).body;
    expect((await fan.post(`/v1/likes/${folder.id}?t=skill`)).status).toBe(200);
    await fan.post(`/v1/follows/${owner.id}`);
    const notis = (await app.get("/api/v1/notifications")).body as { type: string; status?: unknown }[];
    expect(notis.map((n) => n.type)).toEqual(["follow"]);
    expect(notis.filter((n) => n.type === "favourite" && !n.status)).toEqual([]);
  });
});
