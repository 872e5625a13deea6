// Bringing a LinkedIn career in: the export's zip (built here, no personal data) previewed as
// x-folders, the chosen ones imported, nothing duplicated on a second import; hostile archives
// and odd CSVs get a clear 4xx or a listed problem, and change nothing.
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { type TestUser, user } from "../factories";
import { fileForm } from "../http";

const upload = (u: TestUser, bytes: Uint8Array) =>
  u.post("/v1/imports/linkedin/preview", fileForm("linkedin.zip", bytes));

const csv = (rows: string[][]) =>
  rows.map((r) => r.map((f) => (/[",\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(",")).join("\r\n");

const EXPORT = {
  "Positions.csv": strToU8(
    csv([
      ["Company Name", "Title", "Description", "Location", "Started On", "Finished On"],
      ["Acme Corp", "Staff Engineer", "Built the edge platform, end to end.", "Lisbon", "Mar 2021", ""],
      ["Acme Corp", "Engineer", "", "", "Jan 2019", "Feb 2021"],
      ["Initech", "Engineer", "", "", "01/2017", "2018"],
    ]),
  ),
  "Education.csv": strToU8(
    csv([
      ["School Name", "Start Date", "End Date", "Notes", "Degree Name", "Activities"],
      ["Open University", "2012", "2016", "", "BSc Mathematics", "Chess club"],
    ]),
  ),
  "Skills.csv": strToU8(csv([["Name"], ["TypeScript"], ["TypeScript"], ["SQL"]])),
  "Languages.csv": strToU8(
    csv([
      ["Name", "Proficiency"],
      ["French", "Professional working proficiency"],
    ]),
  ),
  "Certifications.csv": strToU8(
    csv([
      ["Name", "Url", "Authority", "Started On", "Finished On", "License Number"],
      ["Cloud Architect", "https://example.org/c", "Example Authority", "May 2022", "", "X1"],
    ]),
  ),
  "Honors.csv": strToU8(
    csv([
      ["Title", "Description", "Issued On"],
      ["Best Paper", "", "Jun 2020"],
    ]),
  ),
  "Volunteering.csv": strToU8(
    csv([
      ["Company Name", "Role", "Cause", "Started On", "Finished On", "Description"],
      ["Code Club", "Mentor", "Education", "Jan 2019", "", ""],
    ]),
  ),
  "Connections.csv": strToU8("First Name,Last Name\nNot,Imported\n"),
};

describe("LinkedIn import", () => {
  it("previews the export's rows as x-folders, imports the chosen ones, and adds nothing the second time", async () => {
    const u = await user();
    await u.post("/v1/folders", { type: "Skill", name: "SQL", descr: "", link: "" });
    const preview = await upload(u, zipSync(EXPORT));
    expect(preview.status).toBe(200);
    const items = preview.body.items as any[];
    expect(items.map((i) => `${i.type}:${i.name}`)).toEqual([
      "Company:Acme Corp",
      "Company:Acme Corp (Engineer)",
      "Company:Initech",
      "School:Open University",
      "Skill:TypeScript",
      "Skill:SQL",
      "Certification:Cloud Architect",
      "Language:French",
      "Award:Best Paper",
      "Organization:Code Club",
    ]);
    expect(items[0]).toMatchObject({ role: "Staff Engineer", start_month: "2021-03", end_month: "", exists: false });
    expect(items[2]).toMatchObject({ start_month: "2017-01", end_month: "2018-01" });
    expect(items[3]).toMatchObject({
      role: "BSc Mathematics",
      start_month: "2012-01",
      end_month: "2016-01",
      descr: "Chess club",
    });
    expect(items.find((i) => i.name === "SQL").exists).toBe(true);
    expect(preview.body.problems).toEqual([{ file: "Skills.csv", row: 3, reason: "a duplicate of “TypeScript”" }]);

    const chosen = items.filter((i) => i.name !== "Initech");
    const first = await u.post("/v1/imports/linkedin", { items: chosen });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ created: 8, existing: 1, failed: [] });
    const list = await u.get(`/v1/folders?uid=${u.id}&sort=cv`);
    expect(list.body.folders.map((f: any) => f.name)).toContain("Acme Corp (Engineer)");
    const acme = list.body.folders.find((f: any) => f.name === "Acme Corp");
    expect(acme).toMatchObject({ type: "Company", role: "Staff Engineer", start_month: "2021-03" });

    const again = await u.post("/v1/imports/linkedin", { items });
    expect(again.body).toEqual({ created: 1, existing: 9, failed: [] });
    const resume = await u.get(`/${u.username}/resume.json`);
    expect(resume.body.work.map((w: any) => w.name)).toEqual(["Acme Corp", "Acme Corp (Engineer)", "Initech"]);
  });

  it("reads BOMs, UTF-16, Windows-1252, semicolons and LinkedIn's date formats", async () => {
    const u = await user();
    const utf16 = (s: string) => {
      const out = new Uint8Array(2 + s.length * 2);
      out.set([0xff, 0xfe]);
      for (let i = 0; i < s.length; i++) {
        out[2 + i * 2] = s.charCodeAt(i) & 255;
        out[3 + i * 2] = s.charCodeAt(i) >> 8;
      }
      return out;
    };
    const cp1252 = new Uint8Array([...strToU8("Name\r\n"), 0x43, 0x61, 0x66, 0xe9, 0x20, 0x6d, 0x61, 0x74, 0x68, 0x73]);
    const res = await upload(
      u,
      zipSync({
        "Basic_LinkedInDataExport/Positions.csv": new Uint8Array([
          0xef,
          0xbb,
          0xbf,
          ...strToU8("Company Name;Title;Started On;Finished On\nZürich AG;Engineer;January 2020;12/2021\n"),
        ]),
        "Basic_LinkedInDataExport/Languages.csv": utf16(
          "Name,Proficiency\r\nDeutsch,Native or bilingual proficiency\r\n",
        ),
        "Basic_LinkedInDataExport/Skills.csv": cp1252,
        "Basic_LinkedInDataExport/Projects.csv": strToU8(
          'Title,Description,Url,Started On,Finished On\n"A, B","line one\nline two",,2020-05,Jun 1, 2021\n',
        ),
      }),
    );
    expect(res.status).toBe(200);
    const by = (n: string) => res.body.items.find((i: any) => i.name === n);
    expect(by("Zürich AG")).toMatchObject({ role: "Engineer", start_month: "2020-01", end_month: "2021-12" });
    expect(by("Deutsch")).toMatchObject({ type: "Language", descr: "Native or bilingual proficiency" });
    expect(by("Café maths")).toMatchObject({ type: "Skill" });
    expect(by("A, B")).toMatchObject({ descr: "line one\nline two", start_month: "2020-05" });
  });

  it("lists a file missing its columns and imports the rest", async () => {
    const u = await user();
    const res = await upload(
      u,
      zipSync({ "Positions.csv": strToU8("Employer,Title\nAcme,Engineer\n"), "Skills.csv": strToU8("Name\nRust\n") }),
    );
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => i.name)).toEqual(["Rust"]);
    expect(res.body.problems).toEqual([{ file: "Positions.csv", row: 0, reason: "missing the column “Company Name”" }]);
  });

  it("refuses hostile or broken archives with a clear 4xx and changes nothing", async () => {
    const u = await user();
    const cases: [string, Uint8Array, number, RegExp][] = [
      ["not a zip", strToU8("Company Name\nAcme\n"), 422, /not a zip/],
      ["traversal", zipSync({ "../../etc/Positions.csv": strToU8("Company Name\nAcme\n") }), 422, /unsafe name/],
      ["absolute", zipSync({ "/Positions.csv": strToU8("Company Name\nAcme\n") }), 422, /unsafe name/],
      ["bomb", zipSync({ "Positions.csv": new Uint8Array(6 << 20) }, { level: 9 }), 413, /zip bomb/],
      [
        "too many entries",
        zipSync(Object.fromEntries(Array.from({ length: 5001 }, (_, i) => [`f${i}.txt`, new Uint8Array(0)])), {
          level: 0,
        }),
        422,
        /more than 5000 files/,
      ],
      [
        "damaged",
        zipSync({ "Positions.csv": strToU8("Company Name\nAcme\n".repeat(50)) }).slice(0, 60),
        422,
        /damaged|not a zip/,
      ],
      ["empty", zipSync({ "readme.txt": strToU8("hi") }), 200, /./],
    ];
    for (const [what, bytes, status, message] of cases) {
      const res = await upload(u, bytes);
      expect(res.status, what).toBe(status);
      if (status !== 200) expect(res.body.message, what).toMatch(message);
      else expect(res.body.problems[0].reason).toMatch(/no LinkedIn profile files/);
    }
    const big = await upload(u, new Uint8Array(11 << 20));
    expect(big.status).toBe(413);
    expect((await u.get(`/v1/folders?uid=${u.id}`)).body.folders).toEqual([]);
  });

  it("checks every chosen row as a typed-in folder; a visitor cannot import", async () => {
    const u = await user();
    const res = await u.post("/v1/imports/linkedin", {
      items: [
        { type: "Company", name: "", role: "" },
        { type: "Skill", name: "x".repeat(300) },
        { type: "Skill", name: "Go" },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(1);
    expect(res.body.failed.map((f: any) => f.reason)).toEqual([
      "name is required",
      "name must be less than 250 characters",
    ]);
    const anon = new (await import("../http")).Client();
    expect((await anon.post("/v1/imports/linkedin", { items: [] })).status).toBe(401);
  });
});
