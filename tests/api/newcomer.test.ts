// A newcomer's first minutes, server side: reports with the reporter's own words and "also block";
// a deleted note's address says it was deleted; experience folders with a role and months.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { user, users, visitor } from "../factories";

async function moderatorOf() {
  const m = await user();
  await env.DB.prepare("update users set role = 'moderator' where id = ?").bind(m.id).run();
  return m;
}

async function note(u: Awaited<ReturnType<typeof user>>, text: string) {
  const res = await u.post("/v1/notes", { label: "idea", content: `<p>${text}</p>` });
  expect(res.status).toBe(201);
  return res.body.note.id as number;
}

describe("reports", () => {
  it("keep the reporter's note for the moderators, and can block the author in the same step", async () => {
    const [a, b] = await users(2);
    const id = await note(a, "spam spam");
    const res = await b.post("/v1/reports", { nid: id, kind: 1, note: "  Posts this\nevery hour  ", block: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ reported: true, blocking: true });
    expect((await b.get(`/v1/users/${a.username}`)).body.blocking).toBe(true);
    const mod = await moderatorOf();
    const queue = (await mod.get("/v1/moderation/reports?status=open&page=1")).body.reports;
    const group = queue.find((g: { id: number; kind: string }) => g.kind === "note" && g.id === id);
    expect(group.reporters).toEqual([
      expect.objectContaining({ username: b.username, note: "Posts this\nevery hour" }),
    ]);
  });

  it("without a note or a block they are as before; a note too long or with control characters is refused", async () => {
    const [a, b] = await users(2);
    const id = await note(a, "fine");
    expect((await b.post("/v1/reports", { nid: id, kind: 2 })).body).toEqual({ reported: true, blocking: false });
    expect((await b.get(`/v1/users/${a.username}`)).body.blocking).toBe(false);
    const long = await b.post("/v1/reports", { nid: id, kind: 2, note: "x".repeat(1001) });
    expect(long.status).toBe(422);
    expect(long.body.fields.note).toBe("Please keep it under 1000 characters.");
    expect((await b.post("/v1/reports", { nid: id, kind: 2, note: "a\u0007b" })).status).toBe(422);
    expect((await b.post("/v1/reports", { nid: id, kind: 2, block: "yes" })).status).toBe(422);
    // Reporting one's own note never blocks oneself.
    expect((await a.post("/v1/reports", { nid: id, kind: 5, block: true })).body).toEqual({
      reported: true,
      blocking: false,
    });
  });
});

describe("a deleted note", () => {
  it("answers 410 This note was deleted at its address, to anyone; a note never there stays 404", async () => {
    const a = await user();
    const id = await note(a, "soon gone");
    expect((await a.delete(`/v1/notes/${id}`)).status).toBe(200);
    for (const who of [a, await user(), visitor()]) {
      for (const path of [`/v1/notes/${id}`, `/v1/notes/${a.username}/${id}`]) {
        const res = await who.get(path);
        expect(res.status).toBe(410);
        expect(res.body.message).toBe("This note was deleted");
      }
    }
    // Under someone else's name it is simply not there.
    expect((await a.get(`/v1/notes/someoneelse/${id}`)).status).toBe(404);
    expect((await a.get(`/v1/notes/${id + 1000}`)).status).toBe(404);
  });
});

describe("experience folders", () => {
  it("take a role and start/end months, shown back on the folder and in lists; other types keep none", async () => {
    const a = await user();
    const job = await a.post("/v1/folders", {
      type: "Company",
      name: "Analytical Engines Ltd",
      role: " Lead engineer ",
      start_month: "2021-03",
    });
    expect(job.status, JSON.stringify(job.body)).toBe(201);
    expect(job.body).toMatchObject({ role: "Lead engineer", start_month: "2021-03", end_month: "" });
    const got = (await a.get(`/v1/folders/${job.body.slug}/user/${a.username}`)).body;
    expect(got).toMatchObject({ role: "Lead engineer", start_month: "2021-03", end_month: "" });
    const edited = await a.patch(`/v1/folders/${job.body.id}`, {
      type: "Company",
      name: "Analytical Engines Ltd",
      role: "CTO",
      start_month: "2021-03",
      end_month: "2024-01",
    });
    expect(edited.body).toMatchObject({ role: "CTO", end_month: "2024-01" });
    // A skill has no role or months: what was sent is not kept.
    const skill = await a.post("/v1/folders", { type: "Skill", name: "Algebra", role: "x", start_month: "2020-01" });
    expect(skill.body).toMatchObject({ role: "", start_month: "", end_month: "" });
    const list = (await a.get(`/v1/folders?uid=${a.id}&sort=time&page=1`)).body.folders;
    expect(list.find((f: { id: number }) => f.id === job.body.id)).toMatchObject({ role: "CTO", end_month: "2024-01" });
  });

  it("refuse a month that is not YYYY-MM, an end before its start, an end without a start, a long role", async () => {
    const a = await user();
    const base = { type: "School", name: "Cambridge" };
    const cases: [Record<string, string>, string, string][] = [
      [{ start_month: "2021-13" }, "start_month", "start must be a month (YYYY-MM)"],
      [{ start_month: "March 2021" }, "start_month", "start must be a month (YYYY-MM)"],
      [{ start_month: "2021-03", end_month: "2020-01" }, "end_month", "end must not be before start"],
      [{ end_month: "2020-01" }, "start_month", "please add the start month"],
      [{ role: "r".repeat(101) }, "role", "role must be less than 100 characters"],
    ];
    for (const [extra, field, message] of cases) {
      const res = await a.post("/v1/folders", { ...base, ...extra });
      expect(res.status, JSON.stringify(extra)).toBe(422);
      expect(res.body.fields[field]).toBe(message);
    }
    expect((await a.get(`/v1/folders?uid=${a.id}&sort=time&page=1`)).body.folders).toEqual([]);
  });

  it("sort=cv lists them as a CV reads: Experience, Education, certifications, Projects, Skills, then others; ongoing first", async () => {
    const a = await user();
    const make = (type: string, name: string, start = "", end = "") =>
      a.post("/v1/folders", { type, name, start_month: start, end_month: end });
    await make("Travel", "Japan");
    await make("Skill", "Algebra");
    await make("Project", "Difference engine", "2019-01");
    await make("School", "Home schooling", "2010-01", "2015-06");
    await make("Company", "Old job", "2016-01", "2018-12");
    await make("Company", "Current job", "2019-02");
    await make("Organization", "Royal Society", "2017-05", "2020-01");
    await make("Certification", "Mathematics", "2015-07");
    const names = (await a.get(`/v1/folders?uid=${a.id}&sort=cv&page=1`)).body.folders.map(
      (f: { name: string }) => f.name,
    );
    expect(names).toEqual([
      "Current job",
      "Royal Society",
      "Old job",
      "Home schooling",
      "Mathematics",
      "Difference engine",
      "Algebra",
      "Japan",
    ]);
  });
});
