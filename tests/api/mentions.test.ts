import { describe, expect, it } from "vitest";
import { type TestUser, user, users, visitor } from "../factories";

const unread = async (u: TestUser) => JSON.parse((await u.get("/v1/me")).body.jstats).noti as number;
const mentionsOf = async (u: TestUser) =>
  (await u.get("/v1/notifications?page=1")).body.notis.filter((n: { action: string }) => n.action === "mention");

describe("@mentions", () => {
  it("link real users on save, notify them once per note, and not again on edits that keep them", async () => {
    const [a, b, c] = await users(3);
    const res = await a.post("/v1/notes", {
      label: "idea",
      content: `<p>hi @${b.username.toUpperCase()}, @nosuchuser1 and mail@${c.username} <a href="/x">@${c.username}</a> @${a.username}</p>`,
    });
    expect(res.status).toBe(201);
    const id = res.body.note.id;
    const note = (await visitor().get(`/v1/notes/${id}`)).body;
    expect(note.content).toContain(`<a href="/${b.username}" class="mention">@${b.username}</a>`);
    // Unknown names, emails and text already in a link stay as they were; oneself is linked, not told.
    expect(note.content).toContain("@nosuchuser1");
    expect(note.content).toContain(`mail@${c.username}`);
    expect(note.content).not.toContain(`href="/${c.username}"`);
    expect(note.content).toContain(`href="/${a.username}"`);
    expect(await unread(b)).toBe(1);
    expect(await unread(c)).toBe(0);
    expect(await unread(a)).toBe(0);
    const [n] = await mentionsOf(b);
    expect(n).toMatchObject({ tblname: "note", rowid: id, href: `/${a.username}/note/${id}`, user: { id: a.id } });

    // An edit that keeps b and adds c: c is told, b is not told again.
    const edit = await a.patch("/v1/notes", {
      id,
      label: "idea",
      content: `<p>@${b.username} and now @${c.username}</p>`,
    });
    expect(edit.status).toBe(200);
    expect(await unread(b)).toBe(1);
    expect(await unread(c)).toBe(1);
    expect(await mentionsOf(b)).toHaveLength(1);
    // Reading resets the badge; a further edit keeping the mention leaves it at 0.
    await b.post("/v1/notifications/read");
    await a.patch("/v1/notes", { id, label: "idea", content: `<p>@${b.username} again</p>` });
    expect(await unread(b)).toBe(0);
    // Deleting the note takes its mentions away.
    await a.delete(`/v1/notes/${id}`);
    expect(await mentionsOf(c)).toHaveLength(0);
    expect(await unread(c)).toBe(0);
  });

  it("works in replies, quotes and plain-text (no-JS) content, and only for the author's own edits", async () => {
    const [a, b, c] = await users(3);
    const id = (await a.post("/v1/notes", { label: "idea", content: "<p>root</p>" })).body.note.id;
    const reply = await c.post("/v1/replies", { parent: -id, content: `@${b.username} look` });
    expect(reply.status).toBe(201);
    expect(reply.body.content).toContain(`<a href="/${b.username}" class="mention">@${b.username}</a>`);
    const m = await mentionsOf(b);
    expect(m).toHaveLength(1);
    expect(m[0]).toMatchObject({ tblname: "reply", href: `/${c.username}/rep/${reply.body.id}` });
    // Someone else "editing" c's reply changes nothing and tells nobody.
    expect((await a.patch("/v1/replies", { id: reply.body.id, content: `<p>@${a.username}x</p>` })).status).toBe(404);
    const d = await user();
    expect((await a.patch("/v1/replies", { id: reply.body.id, content: `<p>@${d.username}</p>` })).status).toBe(404);
    expect(await unread(d)).toBe(0);
    expect((await c.patch("/v1/replies", { id: reply.body.id, content: `<p>@${d.username}</p>` })).status).toBe(200);
    expect(await unread(d)).toBe(1);
    const quote = await c.post("/v1/renotes", { renote_id: id, content: `<p>cc @${d.username}</p>`, quote: true });
    expect(quote.status).toBe(201);
    expect(await unread(d)).toBe(2);
    expect(await unread(b)).toBe(1);
  });
});
