// Issue 17 item 5: GET /v1/export streams a zip of the person's data.
import { env } from "cloudflare:test";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { user, visitor } from "../factories";
import { BASE } from "../http";
import { world } from "../world";

async function download(c: { token: string | null; ip: string }) {
  const { exports } = await import("cloudflare:workers");
  const started = Date.now();
  const res: Response = await (exports as any).default.fetch(
    new Request(`${BASE}/v1/export`, { headers: { authorization: `Bearer ${c.token}`, "cf-connecting-ip": c.ip } }),
  );
  const bytes = new Uint8Array(await res.arrayBuffer());
  const ms = Date.now() - started;
  return { res, ms, files: res.status === 200 ? unzipSync(bytes) : {} };
}
const json = (files: Record<string, Uint8Array>, name: string) => JSON.parse(strFromU8(files[name]));

describe("GET /v1/export", () => {
  it("answers a zip: profile, notes as Markdown with front matter, replies, folders, bookmarks, follows, images", async () => {
    const w = await world();
    const tagged = await w.owner.post("/v1/notes", {
      label: "how to",
      content:
        '<p>Use <strong>bold</strong> and <a href="https://example.com">a link</a> #deploy #edge</p><ul><li>one</li></ul>',
      folders: [w.folderId],
    });
    expect(tagged.status).toBe(201);
    await w.owner.post(`/v1/bookmarks/${w.noteId}?t=note`);
    await env.IMAGES.put(`u/${w.owner.id}/note/pic.png`, new Uint8Array([137, 80, 78, 71]));
    const { res, files } = await download(w.owner);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="notex-.+\.zip"/);
    const names = Object.keys(files);
    expect(names).toEqual(
      expect.arrayContaining([
        "profile.json",
        "replies.json",
        "folders.json",
        "bookmarks.json",
        "follows/following.json",
        "follows/followers.json",
        "images/note/pic.png",
      ]),
    );
    expect(json(files, "profile.json")).toMatchObject({ username: w.owner.username, email: w.owner.email });
    const notes = names.filter((n) => n.startsWith("notes/"));
    expect(notes.length).toBe(3);
    const md = strFromU8(files[notes.find((n) => n.endsWith(`-${tagged.body.note.id}.md`))!]);
    expect(md).toMatch(/^---\nid: \d+\nkind: "note"\nlabel: "how to"\n/);
    expect(md).toContain('tags: ["deploy","edge"]');
    expect(md).toContain('folders: ["Acme Corp"]');
    expect(md).toContain("image_alts: []");
    expect(md).toMatch(/created_at: "\d{4}-\d\d-\d\dT/);
    expect(md).toContain("Use **bold** and [a link](https://example.com)");
    expect(md).toContain("- one");
    expect(json(files, "replies.json").map((r: { text: string }) => r.text)).toEqual(["mine"]);
    expect(json(files, "folders.json")[0]).toMatchObject({ name: "Acme Corp", type: "Company", notes: 3 });
    expect(json(files, "bookmarks.json")).toEqual([expect.objectContaining({ kind: "note", id: w.noteId })]);
    expect(json(files, "follows/followers.json").map((f: { id: number }) => f.id)).toEqual([w.fan.id]);
    expect(json(files, "follows/following.json")).toEqual([]);
    expect([...files["images/note/pic.png"]]).toEqual([137, 80, 78, 71]);
    // Another person's export has none of it.
    const other = await download(w.other);
    expect(Object.keys(other.files).some((n) => n.startsWith("images/"))).toBe(false);
    expect(json(other.files, "profile.json").username).toBe(w.other.username);
  });

  it("holds the edit history, blocks, mutes, reports filed and moderation decisions with reasons (issue 16)", async () => {
    const [a, b, c, mod] = [await user(), await user(), await user(), await user()];
    await env.DB.prepare("update users set role = 'moderator' where id = ?").bind(mod.id).run();
    const n = (await a.post("/v1/notes", { label: "idea", content: "<p>first <strong>take</strong></p>" })).body.note
      .id;
    await a.patch("/v1/notes", { id: n, label: "tip", content: "<p>second</p>" });
    const theirs = (await c.post("/v1/notes", { label: "idea", content: "<p>spam</p>" })).body.note.id;
    await a.post(`/v1/blocks/${b.id}`);
    await a.post(`/v1/mutes/${c.id}`);
    await a.post("/v1/reports", { nid: theirs, kind: 1 });
    await mod.post("/v1/moderation/actions", { kind: "note", id: n, action: "hide", reason: "Off-topic ads" });
    const { files } = await download(a);
    expect(json(files, "note_versions.json")).toEqual([
      expect.objectContaining({
        note_id: n,
        label: "idea",
        content_markdown: expect.stringContaining("first **take**"),
      }),
    ]);
    expect(json(files, "blocks.json")).toEqual([expect.objectContaining({ id: b.id, username: b.username })]);
    expect(json(files, "mutes.json")).toEqual([expect.objectContaining({ id: c.id, username: c.username })]);
    expect(json(files, "reports.json")).toEqual([
      expect.objectContaining({ kind: "note", id: theirs, reason: "Spam", closed_at: null }),
    ]);
    const decisions = json(files, "moderation.json");
    expect(decisions).toEqual([
      expect.objectContaining({ action: "hide", kind: "note", id: n, reason: "Off-topic ads" }),
    ]);
    expect(JSON.stringify(decisions)).not.toContain(mod.username);
    const md = strFromU8(files[Object.keys(files).find((f) => f.endsWith(`-${n}.md`))!]);
    expect(md).toMatch(/hidden_at: "\d{4}-/);
    expect(json(files, "profile.json")).toMatchObject({ role: "user", suspended_at: null });
    // The blocked and muted people's exports do not list who blocked or muted them.
    const theirsExport = await download(b);
    expect(json(theirsExport.files, "blocks.json")).toEqual([]);
  });

  it("refuses a visitor", async () => {
    expect((await visitor().get("/v1/export")).status).toBe(401);
  });

  it("exports an account with 10,000 notes, read a page at a time", async () => {
    const a = await user();
    const now = Date.now();
    for (let start = 0; start < 10_000; start += 500) {
      const stmts = [];
      for (let i = start; i < start + 500; i++)
        stmts.push(
          env.DB.prepare(
            "insert into notes (user_id, label, content, txt, created_at, noted_at) values (?, 'idea', ?, ?, ?, ?)",
          ).bind(a.id, `<p>note ${i}</p>`, `note ${i}`, now + i, now + i),
        );
      await env.DB.batch(stmts);
    }
    const { res, files, ms } = await download(a);
    console.log(`export of 10,000 notes: ${ms} ms`);
    expect(res.status).toBe(200);
    const notes = Object.keys(files).filter((n) => n.startsWith("notes/"));
    expect(notes.length).toBe(10_000);
    expect(new Set(notes).size).toBe(10_000);
    expect(strFromU8(files[notes[9_999]])).toContain("note 9999");
  }, 120_000);
});
