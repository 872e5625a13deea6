// A small social world through the API: one owner's note, folder and reply with a fan's and a
// stranger's likes, replies, renote, quote, bookmark and follows on them, so every counter has rows.
import { type TestUser, users } from "./factories";

export interface World {
  owner: TestUser;
  fan: TestUser;
  other: TestUser;
  /** The owner's note (filed in `folderId`, liked, replied to, renoted, quoted and bookmarked). */
  noteId: number;
  folderId: number;
  /** The fan's reply on the note, with the stranger's reply under it. */
  replyId: number;
  /** The owner's own reply on the note. */
  ownReplyId: number;
}

export async function world(): Promise<World> {
  const [owner, fan, other] = await users(3);
  const ok = <T extends { status: number; body: any }>(res: T, what: string): T["body"] => {
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const folderId = ok(
    await owner.post("/v1/folders", { type: "Company", name: "Acme Corp", descr: "", link: "" }),
    "folder",
  ).id;
  const noteId = ok(
    await owner.post("/v1/notes", { label: "idea", content: "<p>hello #world</p>", folders: [folderId] }),
    "note",
  ).note.id;
  ok(await owner.post("/v1/notes", { label: "tip", content: "<p>second</p>", folders: [folderId] }), "note 2");
  ok(await fan.post(`/v1/follows/${owner.id}`), "follow");
  ok(await other.post(`/v1/follows/${fan.id}`), "follow 2");
  ok(await fan.post(`/v1/likes/${noteId}?t=note`), "like");
  ok(await fan.post(`/v1/likes/${folderId}?t=company`), "like folder");
  ok(await fan.post(`/v1/bookmarks/${noteId}?t=note`), "bookmark");
  ok(await fan.post("/v1/renotes", { renote_id: noteId, content: "" }), "renote");
  ok(await other.post("/v1/renotes", { renote_id: noteId, content: "<p>quoted</p>" }), "quote");
  const replyId = ok(await fan.post("/v1/replies", { parent: -noteId, content: "<p>first</p>" }), "reply").id;
  ok(await other.post("/v1/replies", { parent: replyId, content: "<p>under</p>" }), "reply 2");
  const ownReplyId = ok(await owner.post("/v1/replies", { parent: -noteId, content: "<p>mine</p>" }), "reply 3").id;
  ok(await other.post(`/v1/likes/${replyId}?t=reply`), "like reply");
  ok(await owner.post(`/v1/likes/${replyId}?t=reply`), "like reply 2");
  return { owner, fan, other, noteId, folderId, replyId, ownReplyId };
}
