// A refused like, bookmark, report or follow is decided from rows its own batch reads, and every
// write in that batch is guarded by the same condition: the answer is the spec's status, code and
// message, and the database is exactly as it was. Blocks are held in safety.test.ts.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { wrongCounters } from "../counters";
import { snapshot } from "../db-snapshot";
import { type TestUser, user, users } from "../factories";
import type { Res } from "../http";

const MISSING = 999999999;

/** Calls `call`, expecting the error `status`/`code`/`message`, and proves nothing changed. */
async function refused(call: () => Promise<Res>, status: number, code: string, message: string) {
  const before = await snapshot();
  const res = await call();
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ code, message });
  expect(await snapshot()).toBe(before);
}

async function note(u: TestUser, text: string) {
  const res = await u.post("/v1/notes", { label: "idea", content: `<p>${text}</p>` });
  expect(res.status).toBe(201);
  return res.body.note.id as number;
}

const suspend = (mod: TestUser, n: number) =>
  mod.post("/v1/moderation/actions", { kind: "note", id: n, action: "suspend", reason: "Spam" });

describe("refusals read from rows, not raised inside SQL", () => {
  it("a like, bookmark or report of content that is not there is a 404 Not found and stores nothing", async () => {
    const [a, b] = await users(2);
    const company = (await a.post("/v1/folders", { type: "Company", name: "Acme", descr: "", link: "" })).body.id;
    for (const t of ["note", "reply", "company", "project", "skill"]) {
      await refused(() => b.post(`/v1/likes/${MISSING}?t=${t}`), 404, "not_found", "Not found");
      await refused(() => b.delete(`/v1/likes/${MISSING}?t=${t}`), 404, "not_found", "Not found");
      await refused(() => b.post(`/v1/bookmarks/${MISSING}?t=${t}`), 404, "not_found", "Not found");
      await refused(() => b.post("/v1/reports", { nid: MISSING, kind: 1, t }), 404, "not_found", "Not found");
    }
    // A folder asked for under another folder kind is not that content.
    await refused(() => b.post(`/v1/likes/${company}?t=project`), 404, "not_found", "Not found");
    expect((await b.post(`/v1/likes/${company}?t=company`)).body).toEqual({ liked: true, likenum: 1 });
    expect(await wrongCounters()).toEqual([]);
  });

  it("follows and unfollows of someone who is not there (or suspended) are a 404 User not found and change nothing", async () => {
    const [fan, bad] = await users(2);
    const mod = await user();
    await env.DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
    await refused(() => fan.post(`/v1/follows/${MISSING}`), 404, "not_found", "User not found");
    await refused(() => fan.delete(`/v1/follows/${MISSING}`), 404, "not_found", "User not found");
    expect((await fan.post(`/v1/follows/${bad.id}`)).body).toEqual({ following: true, followers: 1 });
    expect((await suspend(mod, await note(bad, "spam"))).status).toBe(200);
    // The follow, its counters and its notification all stay while the account is suspended.
    await refused(() => fan.delete(`/v1/follows/${bad.id}`), 404, "not_found", "User not found");
    await refused(() => fan.post(`/v1/follows/${bad.id}`), 404, "not_found", "User not found");
    expect(await wrongCounters()).toEqual([]);
  });

  it("a report across a block is taken (moderators hear of abuse); a like or bookmark is a 403 that stores nothing", async () => {
    const [a, b] = await users(2);
    const n = await note(a, "abuse");
    const theirs = await note(b, "theirs");
    await a.post(`/v1/blocks/${b.id}`);
    for (const what of ["likes", "bookmarks"]) {
      await refused(() => b.post(`/v1/${what}/${n}?t=note`), 403, "blocked", "This user has blocked you.");
      const mine = "You have blocked this user. Unblock them to interact.";
      await refused(() => a.post(`/v1/${what}/${theirs}?t=note`), 403, "blocked", mine);
    }
    expect((await b.post("/v1/reports", { nid: n, kind: 1 })).status).toBe(201);
    const row = await env.DB.prepare("select count(*) n from reports where user_id = ? and target_id = ?")
      .bind(b.id, n)
      .first<{ n: number }>();
    expect(row?.n).toBe(1);
  });

  it("undoing one's own like stays possible on content one can no longer open (hidden by a moderator)", async () => {
    const [a, b] = await users(2);
    const mod = await user();
    await env.DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
    const n = await note(a, "to hide");
    await b.post(`/v1/likes/${n}?t=note`);
    await mod.post("/v1/moderation/actions", { kind: "note", id: n, action: "hide", reason: "r" });
    await refused(() => b.post(`/v1/likes/${n}?t=note`), 404, "not_found", "Not found");
    expect((await b.delete(`/v1/likes/${n}?t=note`)).body).toEqual({ liked: false, likenum: 0 });
    expect(await wrongCounters()).toEqual([]);
  });
});
