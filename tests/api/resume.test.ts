// Leaving with a CV: every portfolio is a JSON Resume document (jsonresume.org, schema v1) at
// /{username}/resume.json and a printable page at /{username}/cv, both built from the x-folders,
// both in the account's export.
import { env } from "cloudflare:test";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { type TestUser, user, visitor } from "../factories";
import { BASE } from "../http";
import { tripsOf } from "../../worker/db/meter";

const folder = (u: TestUser, body: Record<string, string>) =>
  u.post("/v1/folders", { descr: "", link: "", ...body }).then((r) => {
    expect(r.status).toBe(201);
    return r.body;
  });

async function portfolio() {
  const u = await user({ name: "Ada Lovelace" });
  await u.patch("/v1/users", { name: "Ada Lovelace", descr: "Engineer who writes things down." });
  await folder(u, {
    type: "Company",
    name: "Acme Corp",
    role: "Staff Engineer",
    start_month: "2021-03",
    descr: "Built the edge platform.",
    link: "https://acme.example",
  });
  await folder(u, { type: "Company", name: "Initech", role: "Engineer", start_month: "2017-01", end_month: "2021-02" });
  await folder(u, {
    type: "School",
    name: "Open University",
    role: "BSc Mathematics",
    start_month: "2012-09",
    end_month: "2016-06",
  });
  await folder(u, {
    type: "Certification",
    name: "Cloud Architect",
    role: "Example Authority",
    start_month: "2022-05",
  });
  await folder(u, {
    type: "Project",
    name: "NoteX importer",
    role: "Maintainer",
    start_month: "2023-01",
    link: "https://example.org/p",
  });
  await folder(u, { type: "Organization", name: "Code Club", role: "Mentor", start_month: "2019-01" });
  await folder(u, { type: "Skill", name: "TypeScript" });
  await folder(u, { type: "Language", name: "French", descr: "Professional working proficiency" });
  await folder(u, { type: "Award", name: "Best Paper", role: "Example Conference", start_month: "2020-06" });
  await folder(u, { type: "Travel", name: "Lisbon" });
  return u;
}

describe("JSON Resume at /{username}/resume.json", () => {
  it("answers the portfolio in the jsonresume.org v1 shape, in one D1 trip", async () => {
    const u = await portfolio();
    const res = await visitor().get(`/${u.username}/resume.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(tripsOf(res.headers.get("server-timing"))).toBe(1);
    const r = res.body;
    expect(r.$schema).toBe("https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json");
    expect(r.basics).toMatchObject({
      name: "Ada Lovelace",
      label: "Staff Engineer at Acme Corp",
      url: `${BASE}/${u.username}`,
      summary: "Engineer who writes things down.",
      profiles: [{ network: "NoteX", username: u.username, url: `${BASE}/${u.username}` }],
    });
    expect(r.basics.email).toBeUndefined();
    // Ongoing first, then the latest ended.
    expect(r.work).toEqual([
      {
        name: "Acme Corp",
        position: "Staff Engineer",
        url: "https://acme.example",
        startDate: "2021-03",
        summary: "Built the edge platform.",
      },
      { name: "Initech", position: "Engineer", startDate: "2017-01", endDate: "2021-02" },
    ]);
    expect(r.education).toEqual([
      { institution: "Open University", studyType: "BSc Mathematics", startDate: "2012-09", endDate: "2016-06" },
    ]);
    expect(r.certificates).toEqual([{ name: "Cloud Architect", issuer: "Example Authority", date: "2022-05" }]);
    expect(r.projects).toEqual([
      { name: "NoteX importer", roles: ["Maintainer"], startDate: "2023-01", url: "https://example.org/p" },
    ]);
    expect(r.volunteer).toEqual([{ organization: "Code Club", position: "Mentor", startDate: "2019-01" }]);
    expect(r.skills).toEqual([{ name: "TypeScript" }]);
    expect(r.languages).toEqual([{ language: "French", fluency: "Professional working proficiency" }]);
    expect(r.awards).toEqual([{ title: "Best Paper", awarder: "Example Conference", date: "2020-06" }]);
    // A type the schema has no place for is kept in meta, not lost.
    expect(r.meta).toMatchObject({ canonical: `${BASE}/${u.username}/resume.json`, version: "v1.0.0" });
    expect(r.meta.other).toEqual([{ type: "Travel", name: "Lisbon", url: `${BASE}/${u.username}/x/lisbon` }]);
  });

  it("is a 404 for no one, a suspended account, or a person on another server", async () => {
    expect((await visitor().get("/nobody_here_x/resume.json")).status).toBe(404);
    const u = await user();
    expect((await visitor().get(`/${u.username}/resume.json`)).status).toBe(200);
    await env.DB.prepare("update users set suspended_at = ? where id = ?").bind(Date.now(), u.id).run();
    expect((await visitor().get(`/${u.username}/resume.json`)).status).toBe(404);
    expect((await visitor().get("/@someone@remote.example/resume.json")).status).toBe(404);
  });
});

describe("the account export", () => {
  it("includes resume.json and cv.html", async () => {
    const u = await portfolio();
    const { exports } = await import("cloudflare:workers");
    const res: Response = await (exports as any).default.fetch(
      new Request(`${BASE}/v1/export`, { headers: { authorization: `Bearer ${u.token}`, "cf-connecting-ip": u.ip } }),
    );
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const resume = JSON.parse(strFromU8(files["resume.json"]));
    expect(resume.basics.name).toBe("Ada Lovelace");
    expect(resume.work.map((w: { name: string }) => w.name)).toEqual(["Acme Corp", "Initech"]);
    const cv = strFromU8(files["cv.html"]);
    expect(cv).toMatch(/^<!doctype html>/);
    expect(cv).toContain("<h2>Experience</h2>");
    expect(cv).toContain("Staff Engineer");
    expect(cv).toContain("@media print");
  });
});
