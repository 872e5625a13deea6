// Issue 21 item 16: links with an old username keep working after a rename, and the old name is
// kept for its former owner for 30 days. Pages (profile, note, reply, x-folder, history) are held to
// the same by tests/e2e/renames.spec.ts; here the API, the feeds and who may take the name.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { FORMER_KEEP, RESERVE_MS } from "../../worker/features/users/users.service";
import { Client } from "../http";
import { type TestUser, user, visitor } from "../factories";

let seq = 0;
const fresh = (p = "n") => `${p}${Date.now().toString(36).slice(-5)}${(seq++).toString(36)}`;

async function rename(u: TestUser, to: string) {
  const res = await u.patch("/v1/users/username", { username: to });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.username).toBe(to);
  u.username = to;
}

const signup = (username: string) =>
  new Client().post("/v1/signup", {
    email: `${fresh("e")}@example.com`,
    name: "Someone",
    username,
    password: "secret1",
  });

/** Moves a rename `days` into the past. */
const age = (old: string, days: number) =>
  env.DB.prepare("update former_usernames set released_at = released_at - ? where username = ?")
    .bind(days * 24 * 3600 * 1000, old)
    .run();

describe("renamed accounts (issue 21 item 16)", () => {
  it("the old name finds the account under its name now; its feeds answer 301 to the new name's", async () => {
    const a = await user();
    const old = a.username;
    const folder = (await a.post("/v1/folders", { type: "Skill", name: "Knitting", descr: "", link: "" })).body;
    await a.post("/v1/notes", { label: "idea", content: "<p>Still here</p>", folders: [folder.id] });
    const to = fresh();
    await rename(a, to);

    const found = await visitor().get(`/v1/users/${old.toUpperCase()}`);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ id: a.id, username: to });

    const feed = await visitor().get(`/${old}/rss`);
    expect(feed.status).toBe(301);
    expect(feed.headers.get("location")).toBe(`/${to}/rss`);
    expect(feed.headers.get("cache-control")).toBe("max-age=3600");
    const folderFeed = await visitor().get(`/${old}/x/${folder.slug}/rss`);
    expect(folderFeed.status).toBe(301);
    expect(folderFeed.headers.get("location")).toBe(`/${to}/x/${folder.slug}/rss`);
    expect((await visitor().get(`/${to}/rss`)).status).toBe(200);
    // A folder that does not exist stays a 404 under either name.
    expect((await visitor().get(`/${to}/x/nothing-here/rss`)).status).toBe(404);
    // A name nobody ever had is still a 404.
    expect((await visitor().get(`/v1/users/${fresh("never")}`)).status).toBe(404);
    expect((await visitor().get(`/${fresh("never")}/rss`)).status).toBe(404);
  });

  it("every former name leads to the account, after several renames", async () => {
    const a = await user();
    const names = [a.username];
    for (let i = 0; i < 2; i++) {
      const to = fresh();
      await rename(a, to);
      names.push(to);
    }
    for (const old of names.slice(0, -1)) {
      expect((await visitor().get(`/v1/users/${old}`)).body.username).toBe(a.username);
      expect((await visitor().get(`/${old}/rss`)).headers.get("location")).toBe(`/${a.username}/rss`);
    }
    // Back to the first name: it is the account's again, the others still lead to it.
    await rename(a, names[0]);
    expect((await visitor().get(`/v1/users/${names[1]}`)).body.username).toBe(names[0]);
    expect((await visitor().get(`/${names[0]}/rss`)).status).toBe(200);
    const rows = await env.DB.prepare("select username from former_usernames where user_id = ? order by username")
      .bind(a.id)
      .all<{ username: string }>();
    expect(rows.results.map((r) => r.username).sort()).toEqual([names[1], names[2]].sort());
  });

  it("for 30 days only the former owner may take the old name; then anyone may, and the redirect ends", async () => {
    const a = await user();
    const b = await user();
    const old = a.username;
    await rename(a, fresh());

    // Others get the spec's own messages: sign-up's and the username change's.
    const taken = await signup(old);
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe("Username already exists. Please choose another.");
    expect(taken.body.fields.username).toBe("Username already exists. Please choose another.");
    const change = await b.patch("/v1/users/username", { username: old });
    expect(change.status).toBe(409);
    expect(change.body.message).toBe("username is taken");

    // Still inside the 30 days: still reserved.
    await age(old, 29);
    expect((await b.patch("/v1/users/username", { username: old })).status).toBe(409);

    // After them, it is free: b takes it, and /{old} is b's from then on.
    await age(old, 2);
    expect(RESERVE_MS).toBe(30 * 24 * 3600 * 1000);
    await rename(b, old);
    expect((await visitor().get(`/v1/users/${old}`)).body).toMatchObject({ id: b.id, username: old });
    expect((await visitor().get(`/${old}/rss`)).status).toBe(200);
    const row = await env.DB.prepare("select user_id from former_usernames where username = ?").bind(old).first();
    expect(row).toBeNull();
  });

  it("the former owner may take the name back within the 30 days", async () => {
    const a = await user();
    const old = a.username;
    await rename(a, fresh());
    await rename(a, old);
    expect((await visitor().get(`/v1/users/${old}`)).body).toMatchObject({ id: a.id, username: old });
  });

  it("an expired old name taken at sign-up stops leading to its former owner", async () => {
    const a = await user();
    const old = a.username;
    await rename(a, fresh());
    await age(old, 31);
    // Still leads to a until someone takes it.
    expect((await visitor().get(`/v1/users/${old}`)).body.id).toBe(a.id);
    const made = await signup(old);
    expect(made.status).toBe(201);
    expect((await visitor().get(`/v1/users/${old}`)).body.id).toBe(made.body.user.id);
    expect(await env.DB.prepare("select 1 from former_usernames where username = ?").bind(old).first()).toBeNull();
  });

  it("a deleted account's former names are free at once and lead nowhere", async () => {
    const a = await user();
    const old = a.username;
    await rename(a, fresh());
    expect((await a.request("DELETE", "/v1/users", { password: a.password })).status).toBeLessThan(300);
    expect((await visitor().get(`/v1/users/${old}`)).status).toBe(404);
    expect((await visitor().get(`/${old}/rss`)).status).toBe(404);
    expect((await signup(old)).status).toBe(201);
  });
});

describe("renaming again and again (issue 21 item 16)", () => {
  it("an account keeps only its newest FORMER_KEEP former names: older ones redirect nowhere and anyone may take them", async () => {
    const a = await user();
    const names = [a.username];
    for (let i = 0; i < FORMER_KEEP + 2; i++) {
      const to = fresh("r");
      await rename(a, to);
      names.push(to);
      // Distinct times, so "newest" is well defined.
      await age(names[names.length - 2], 0.001 * (FORMER_KEEP + 2 - i));
    }
    const former = names.slice(0, -1);
    const freed = former.slice(0, former.length - FORMER_KEEP);
    const kept = former.slice(-FORMER_KEEP);
    for (const old of kept) {
      const found = await visitor().get(`/v1/users/${old}`);
      expect(found.status, old).toBe(200);
      expect(found.body.id).toBe(a.id);
      expect((await signup(old)).status, old).toBe(409);
    }
    for (const old of freed) {
      expect((await visitor().get(`/v1/users/${old}`)).status, old).toBe(404);
      expect((await signup(old)).status, old).toBe(201);
    }
  });
});
