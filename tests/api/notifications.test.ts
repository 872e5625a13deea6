import { describe, expect, it } from "vitest";
import { users } from "../factories";

// Notifications a newcomer can read at a glance: what a like or renote is about, the Mentions tab,
// follow back, and which ones are new.

interface Noti {
  id: number;
  action: string;
  tblname: string;
  subject: string | null;
  unread: boolean;
  following?: boolean;
}

describe("notifications: named, filtered, unread", () => {
  it("names the note, reply or x-folder a like or renote is about, in its opening words", async () => {
    const [a, b] = await users(2);
    const long =
      "The Analytical Engine weaves algebraic patterns just as the Jacquard loom weaves flowers and leaves, said Ada.";
    const note = (await a.post("/v1/notes", { label: "idea", content: `<p>${long}</p>` })).body.note.id;
    const short = (await a.post("/v1/notes", { label: "idea", content: "<p>Short one.</p>" })).body.note.id;
    const reply = (await a.post("/v1/replies", { parent: -short, content: "<p>My own reply</p>" })).body.id;
    const folder = (await a.post("/v1/folders", { type: "Skill", name: "Poetical science", descr: "", link: "" })).body;
    await b.post(`/v1/likes/${note}?t=note`);
    await b.post("/v1/renotes", { renote_id: short, content: "" });
    await b.post(`/v1/likes/${reply}?t=reply`);
    await b.post(`/v1/likes/${folder.id}?t=skill`);
    const { notis } = (await a.get("/v1/notifications?page=1")).body as { notis: Noti[] };
    const about = Object.fromEntries(notis.map((n) => [`${n.action} ${n.tblname}`, n.subject]));
    expect(about).toEqual({
      "like folder": "Poetical science",
      "like reply": "My own reply",
      "renote note": "Short one.",
      "like note": "The Analytical Engine weaves algebraic patterns just as the…",
    });
    // An edit shows: the notice reads the note as it is now.
    await a.patch("/v1/notes", { id: short, label: "idea", content: "<p>Edited words</p>" });
    const again = (await a.get("/v1/notifications?page=1")).body.notis as Noti[];
    expect(again.find((n) => n.action === "renote")?.subject).toBe("Edited words");
  });

  it("filters to mentions, replies and quotes (t=mentions), newest first", async () => {
    const [a, b, c] = await users(3);
    const note = (await a.post("/v1/notes", { label: "idea", content: "<p>Hello</p>" })).body.note.id;
    await b.post(`/v1/follows/${a.id}`);
    await b.post(`/v1/likes/${note}?t=note`);
    const reply = (await b.post("/v1/replies", { parent: -note, content: "<p>Hi</p>" })).body.id;
    await c.post("/v1/notes", { label: "idea", content: `<p>Hey @${a.username}</p>` });
    await c.post("/v1/renotes", { renote_id: note, content: "Quoting this" });
    const all = (await a.get("/v1/notifications?page=1")).body.notis as Noti[];
    expect(all.map((n) => n.action)).toEqual(["quote", "mention", "reply", "like", "follow"]);
    const mentions = (await a.get("/v1/notifications?page=1&t=mentions")).body.notis as Noti[];
    expect(mentions.map((n) => n.action)).toEqual(["quote", "mention", "reply"]);
    expect(mentions[2]).toMatchObject({ tblname: "reply", rowid: reply });
    // Anything else is the whole list, never an error.
    expect((await a.get("/v1/notifications?page=1&t=bogus")).body.notis).toHaveLength(5);
  });

  it("marks new ones unread until the list is read, and says whether a follower is followed back", async () => {
    const [a, b, c] = await users(3);
    await b.post(`/v1/follows/${a.id}`);
    await c.post(`/v1/follows/${a.id}`);
    await a.post(`/v1/follows/${c.id}`);
    const first = (await a.get("/v1/notifications?page=1")).body.notis as Noti[];
    expect(first.map((n) => [n.unread, n.following])).toEqual([
      [true, true],
      [true, false],
    ]);
    await a.post("/v1/notifications/read");
    const note = (await a.post("/v1/notes", { label: "idea", content: "<p>Later</p>" })).body.note.id;
    await b.post(`/v1/likes/${note}?t=note`);
    const next = (await a.get("/v1/notifications?page=1")).body.notis as Noti[];
    expect(next.map((n) => [n.action, n.unread])).toEqual([
      ["like", true],
      ["follow", false],
      ["follow", false],
    ]);
    expect(next[0].following).toBeUndefined();
  });
});
