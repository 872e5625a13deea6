// The D1 round trips of the writes that answer the author's username (a note's and a folder's
// href): the username comes from the write's own statements (a subquery in the insert's or
// update's RETURNING, or the last statement of its batch), never from a trip of its own (the
// session names only the account). Server-Timing says how many trips a request took.
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { tripsOf } from "../../worker/db/meter";
import { user } from "../factories";
import type { Res } from "../http";

const trips = (res: Res) => tripsOf(res.headers.get("server-timing"));

describe("writes that answer the author's username", () => {
  it("name it from their own statements, and read before writing in one trip: a note and a folder, created and edited", async () => {
    const a = await user();
    const created = await a.post("/v1/notes", { label: "idea", content: "<p>plain</p>" });
    expect(created.status).toBe(201);
    const id = created.body.note.id;
    expect(created.body.note.href).toBe(`/${a.username}/note/${id}`);
    // The insert (its id first), then everything that depends on it.
    expect(trips(created)).toBe(2);

    const edited = await a.patch("/v1/notes", { id, label: "idea", content: "<p>edited</p>" });
    expect(edited.body.note.href).toBe(`/${a.username}/note/${id}`);
    // One trip reads the note (the caller's?) with its folders, then the batch.
    expect(trips(edited)).toBe(2);

    const folder = await a.post("/v1/folders", { type: "Company", name: "Acme Inc", descr: "", link: "" });
    expect(folder.status).toBe(201);
    expect(folder.body.href).toBe(`/${a.username}/x/acme-inc`);
    // One trip reads for a duplicate and the slugs taken, then the insert.
    expect(trips(folder)).toBe(2);

    const renamed = { type: "Company", name: "Acme Two", descr: "", link: "" };
    const folderEdit = await a.patch(`/v1/folders/${folder.body.id}`, renamed);
    expect(folderEdit.body.href).toBe(`/${a.username}/x/acme-two`);
    // One trip reads the folder (the caller's?), a duplicate and the slugs taken, then the update.
    expect(trips(folderEdit)).toBe(2);
  });
});

describe("a plain renote and its undo", () => {
  it("take two trips and one: the original, its owner and a block are read at once; an unknown note is a 404", async () => {
    const [a, b, c] = [await user(), await user(), await user()];
    const id = (await a.post("/v1/notes", { label: "idea", content: "<p>shared</p>" })).body.note.id;
    const renoted = await b.post("/v1/renotes", { renote_id: id, content: "" });
    expect(renoted.body).toMatchObject({ id, renoted: true, renum: 1 });
    expect(trips(renoted)).toBe(2);
    // A renote of b's renote renotes the original.
    const theirs = await env.DB.prepare("select id from notes where user_id = ? and kind = 1 and renote_id = ?")
      .bind(b.id, id)
      .first<{ id: number }>();
    const again = await c.post("/v1/renotes", { renote_id: theirs?.id, content: "" });
    expect(again.body).toMatchObject({ id, renoted: true, renum: 2 });
    expect(trips(again)).toBe(2);
    await c.delete(`/v1/renotes/${id}`);
    expect((await c.post("/v1/renotes", { renote_id: 999999999, content: "" })).status).toBe(404);
    const renotices = async () =>
      (await a.get("/v1/notifications?page=1")).body.notis.filter((n: { action: string }) => n.action === "renote");
    expect(await renotices()).toHaveLength(1);
    const undone = await b.delete(`/v1/renotes/${id}`);
    expect(undone.body).toMatchObject({ id, renoted: false, renum: 0 });
    expect(trips(undone)).toBe(1);
    expect(await renotices()).toEqual([]);
    expect((await b.delete("/v1/renotes/999999999")).status).toBe(404);
  });
});
