import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { refusedUnchanged, snapshot } from "../db-snapshot";
import { type TestUser, user, users, visitor } from "../factories";

const folder = (u: TestUser, body: Record<string, unknown> = {}) =>
  u.post("/v1/folders", { type: "Company", name: "Acme Corp", descr: "", link: "", ...body });
const jstype = async (u: TestUser) => JSON.parse((await u.get("/v1/me")).body.jstype);
const get = async (u: TestUser, id: number) => (await u.get(`/v1/folders/${id}`)).body;

describe("x-folders", () => {
  it("answers the folder's own href on create and on edit (issue 15: pages need no /me call)", async () => {
    const a = await user();
    const created = await folder(a, { name: "Hrefs Inc" });
    expect(created.body.href).toBe(`/${a.username}/x/hrefs-inc`);
    const renamed = await a.patch(`/v1/folders/${created.body.id}`, {
      type: "Company",
      name: "Hrefs Two",
      descr: "",
      link: "",
    });
    expect(renamed.body.href).toBe(`/${a.username}/x/hrefs-two`);
  });

  it("creates with a slug, counts by type, answers by slug and user, edits and deletes", async () => {
    const a = await user();
    const res = await folder(a, { link: "acme.example" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      type: "Company",
      name: "Acme Corp",
      slug: "acme-corp",
      link: "http://acme.example",
      notenum: 0,
    });
    expect(await jstype(a)).toEqual({ Company: 1 });
    const bySlug = (await visitor().get(`/v1/folders/acme-corp/user/${a.username}`)).body;
    expect(bySlug).toMatchObject({ id: res.body.id, user: { username: a.username }, jslabel: "{}" });
    // Same name, other type: a second slug.
    expect((await folder(a, { type: "Project" })).body.slug).toBe("acme-corp-2");
    // Edit keeps the slug unless the name changes, and moves the type count.
    for (const [name, descr, slug] of [
      ["Acme Corp", "x", "acme-corp"],
      ["Acme Academy", "", "acme-academy"],
    ]) {
      const edited = await a.patch(`/v1/folders/${res.body.id}`, { type: "School", name, descr, link: "" });
      expect(edited.body.slug).toBe(slug);
    }
    expect(await jstype(a)).toEqual({ Project: 1, School: 1 });
    expect((await a.delete(`/v1/folders/${res.body.id}`)).status).toBe(200);
    expect(await jstype(a)).toEqual({ Project: 1 });
  });

  it("gives 250-character names sharing a long prefix cut, unique slugs (no 500 from a LIKE pattern)", async () => {
    const a = await user();
    const long = (tail: string) => `${"Acme Long Name ".repeat(17)}`.slice(0, 250 - tail.length) + tail;
    const slugs: string[] = [];
    for (const tail of ["one", "two", "three"]) {
      const res = await folder(a, { name: long(tail) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      slugs.push(res.body.slug);
    }
    // The names differ only past the slug's 80 characters: one cut base, then -2, -3.
    expect(slugs[0].length).toBeLessThanOrEqual(80);
    expect(slugs.slice(1)).toEqual([`${slugs[0]}-2`, `${slugs[0]}-3`]);
    // Renaming another folder onto the shared prefix takes the next free one.
    const other = (await folder(a, { name: "x" })).body;
    const renamed = await a.patch(`/v1/folders/${other.id}`, {
      type: "Company",
      name: long("four"),
      descr: "",
      link: "",
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.slug).toBe(`${slugs[0]}-4`);
  });

  const bad: [Record<string, unknown>, string, string][] = [
    [{ type: "" }, "type", "please select or enter a type"],
    [{ type: "t".repeat(31) }, "type", "folder type must be less than 30 characters"],
    [{ name: " " }, "name", "name is required"],
    [{ name: "n".repeat(251) }, "name", "name must be less than 250 characters"],
    [{ descr: "d".repeat(501) }, "descr", "description must be less than 500 characters"],
    [{ link: `http://${"l".repeat(300)}` }, "link", "link must be less than 300 characters"],
  ];
  it.each(bad)("refuses %o with the spec's message and changes nothing", async (patch, field, message) => {
    const a = await user();
    await refusedUnchanged(() => folder(a, patch), field, message);
  });

  it("answers 409 for the same type and name, whatever the case", async () => {
    const a = await user();
    await folder(a);
    const dup = await folder(a, { type: "company", name: "ACME CORP" });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe("You already have this x-folder");
  });

  it("files notes only into the author's folders and keeps notenum, noted_at, labels exact", async () => {
    const [a, b] = await users(2);
    const f = (await folder(a)).body;
    const other = (await folder(b)).body;
    const before = await snapshot();
    const refused = await a.post("/v1/notes", { label: "idea", content: "<p>x</p>", folders: [other.id] });
    expect(refused.status).toBe(422);
    expect(await snapshot()).toBe(before);
    const n1 = (await a.post("/v1/notes", { label: "idea", content: "<p>one</p>", folders: [f.id] })).body.note.id;
    const n2 = (await a.post("/v1/notes", { label: "tip", content: "<p>two</p>", folders: [f.id] })).body.note.id;
    let got = await get(a, f.id);
    expect(got.notenum).toBe(2);
    expect(JSON.parse(got.jslabel)).toEqual({ idea: 1, tip: 1 });
    expect(got.noted_at).toBeGreaterThan(0);
    expect((await a.get(`/v1/notes/${n1}`)).body.folders).toEqual([{ id: f.id, name: "Acme Corp", slug: "acme-corp" }]);
    const list = (await visitor().get(`/v1/folders/${f.id}/notes?page=1`)).body.notes.map((n: { id: number }) => n.id);
    expect(list).toEqual([n2, n1]);
    expect(
      (await visitor().get(`/v1/folders/${f.id}/notes?page=1&label=tip`)).body.notes.map((n: { id: number }) => n.id),
    ).toEqual([n2]);
    // By the folder page's address (owner's name in any case, slug): the same lists, without the id.
    const at = `/v1/folders/${f.slug}/user/${a.username.toUpperCase()}/notes`;
    expect((await visitor().get(`${at}?page=1`)).body.notes.map((n: { id: number }) => n.id)).toEqual([n2, n1]);
    expect((await visitor().get(`${at}?page=1&label=tip`)).body.notes.map((n: { id: number }) => n.id)).toEqual([n2]);
    // Another person's name with this slug, or a slug nobody filed under, holds nothing.
    expect((await visitor().get(`/v1/folders/${f.slug}/user/${b.username}/notes?page=1`)).body.notes).toEqual([]);
    expect((await visitor().get(`/v1/folders/no-such/user/${a.username}/notes?page=1`)).body.notes).toEqual([]);
    // Editing the label moves the folder's label count.
    await a.patch("/v1/notes", { id: n1, label: "tip", content: "<p>one</p>", folders: [f.id] });
    expect(JSON.parse((await get(a, f.id)).jslabel)).toEqual({ tip: 2 });
    // Deleting is refused while notes remain; unfiling and deleting notes empties it.
    const blocked = await a.delete(`/v1/folders/${f.id}`);
    expect(blocked.status).toBe(422);
    expect(blocked.body.message).toBe("You have to remove all notes of this folder before deleting it.");
    await a.patch("/v1/notes", { id: n1, label: "tip", content: "<p>one</p>", folders: [] });
    await a.delete(`/v1/notes/${n2}`);
    got = await get(a, f.id);
    expect(got).toMatchObject({ notenum: 0, noted_at: 0, jslabel: "{}" });
    expect(
      (await env.DB.prepare("select count(*) n from folder_notes where folder_id = ?").bind(f.id).first())?.n,
    ).toBe(0);
    expect((await a.delete(`/v1/folders/${f.id}`)).status).toBe(200);
  });

  it("only the owner edits or deletes; lists filter by type and sort", async () => {
    const [a, b] = await users(2);
    const f = (await folder(a)).body;
    await folder(a, { type: "Skill", name: "TypeScript" });
    const before = await snapshot();
    expect((await b.patch(`/v1/folders/${f.id}`, { type: "X", name: "Hijack" })).status).toBe(404);
    expect((await b.delete(`/v1/folders/${f.id}`)).status).toBe(404);
    expect((await visitor().post("/v1/folders", { type: "X", name: "Y" })).status).toBe(401);
    expect(await snapshot()).toBe(before);
    const byType = (await visitor().get(`/v1/folders?uid=${a.id}&sort=type&page=1`)).body;
    expect(byType.folders.map((x: { type: string }) => x.type)).toEqual(["Company", "Skill"]);
    expect((await visitor().get(`/v1/folders?uid=${a.id}&type=Skill&page=1`)).body.folders).toHaveLength(1);
    // By the name in a profile's address (any case) instead of the id: the same lists.
    expect((await visitor().get(`/v1/folders?username=${a.username.toUpperCase()}&sort=type&page=1`)).body).toEqual(
      byType,
    );
    expect((await visitor().get(`/v1/folders?username=${b.username}&sort=type&page=1`)).body.folders).toEqual([]);
    expect((await visitor().get("/v1/folders?sort=type&page=1")).status).toBe(400);
    expect((await visitor().get(`/v1/folders/nope/user/${a.username}`)).status).toBe(404);
  });

  it("likes, bookmarks and reports accept company, project and skill folders", async () => {
    const [a, b] = await users(2);
    const f = (await folder(a)).body;
    expect((await b.post(`/v1/likes/${f.id}?t=company`)).body).toEqual({ liked: true, likenum: 1 });
    expect((await b.post(`/v1/likes/${f.id}?t=skill`)).status).toBe(404);
    expect((await b.post(`/v1/bookmarks/${f.id}?t=company`)).body).toEqual({ bookmarked: true });
    expect((await b.post("/v1/reports", { nid: f.id, kind: 5, t: "company" })).status).toBe(201);
  });
});

describe("folder logo", () => {
  it("answers a signed upload link and serves the logo once uploaded", async () => {
    const a = await user();
    const png = Uint8Array.from(
      atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII="),
      (ch) => ch.charCodeAt(0),
    );
    const res = await folder(a, { upload: { file_size: png.length, file_ext: "png" } });
    expect(res.status).toBe(201);
    expect(res.body.upload.put_link).toContain(`/v1/uploads/u/${a.id}/logo/`);
    expect(res.body.logo).toBe(res.body.upload.file_url);
    const url = new URL(res.body.upload.put_link);
    expect(
      (
        await a.request("PUT", `${url.pathname}${url.search}`, png as unknown as string, {
          "content-type": "image/png",
        })
      ).status,
    ).toBe(200);
    expect((await visitor().get(res.body.logo)).status).toBe(200);
    expect((await visitor().get(`/v1/folders/acme-corp/user/${a.username}`)).body.logo).toBe(res.body.logo);
  });
});
