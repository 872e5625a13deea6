// Media as apps and scripts send it: a part without a type or typed application/octet-stream is
// known by its bytes; answers carry meta (sizes) and a blurhash; an edit resends the status's own
// attachment ids with new alt text in media_attributes, and an app's edit keeps a note's video.
import { isBlurhashValid } from "blurhash";
import { describe, expect, it } from "vitest";
import { user } from "../factories";
import { callWith, Client } from "../http";
import { GIF, PNG } from "../images";
import { appToken } from "../mastodon";

/** The start of an MP4 file: an ftyp box. */
const MP4 = new Uint8Array([
  0, 0, 0, 24, 102, 116, 121, 112, 105, 115, 111, 109, 0, 0, 2, 0, 105, 115, 111, 109, 109, 112, 52, 49,
]);

async function person() {
  const p = await user();
  const { client, token } = await appToken(p, "read write follow");
  const raw = new Client();
  raw.token = token;
  return { p, m: client, raw, token };
}

/** A multipart upload as toot, Python scripts and tsl-mastodon-api send it. */
async function upload(token: string, part: Blob, fields: Record<string, string> = {}) {
  const form = new FormData();
  form.set("file", part, "picture");
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const res = await callWith({}, "/api/v2/media", {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe("Mastodon media by its bytes", () => {
  it("takes a PNG sent as octet-stream or with no type, and answers its sizes and a blurhash", async () => {
    const a = await person();
    for (const part of [new Blob([PNG], { type: "application/octet-stream" }), new Blob([PNG])]) {
      const res = await upload(a.token, part);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.id).toMatch(/\.png$/);
      expect(res.body.type).toBe("image");
      expect(res.body.meta.original).toEqual({ width: 3, height: 2, size: "3x2", aspect: 1.5 });
      expect(res.body.meta.small).toEqual({ width: 3, height: 2, size: "3x2", aspect: 1.5 });
      expect(isBlurhashValid(res.body.blurhash).result).toBe(true);
      // The stored file is served as what it is.
      const img = await new Client().get(new URL(res.body.url).pathname);
      expect(img.headers.get("content-type")).toBe("image/png");
      // GET /api/v1/media/:id answers the same.
      const again = await a.raw.get(`/api/v1/media/${res.body.id}`);
      expect(again.body.meta.original).toEqual(res.body.meta.original);
      expect(again.body.blurhash).toBe(res.body.blurhash);
    }
    // A GIF declared as a JPEG is a GIF.
    const gif = await upload(a.token, new Blob([GIF], { type: "image/jpeg" }));
    expect(gif.status).toBe(200);
    expect(gif.body.id).toMatch(/\.gif$/);
    expect(gif.body.meta.original).toMatchObject({ width: 5, height: 4 });
  });

  it("refuses what is not an image NoteX keeps, whatever the part says, with words", async () => {
    const a = await person();
    const text = await upload(a.token, new Blob(["not a picture"], { type: "image/png" }));
    expect(text.status).toBe(422);
    expect(text.body.error).toMatch(/JPEG, PNG, GIF and WebP/);
    const video = await upload(a.token, new Blob([MP4], { type: "application/octet-stream" }));
    expect(video.status).toBe(422);
    expect(video.body.error).toMatch(/video/i);
  });

  it("an edit resends the status's own attachments with new alt text; apps' edits keep a note's video", async () => {
    const a = await person();
    const media = await upload(a.token, new Blob([PNG]), { description: "first alt" });
    const posted = await a.raw.post("/api/v1/statuses", { status: "With a picture", media_ids: [media.body.id] });
    expect(posted.status).toBe(200);
    const [att] = posted.body.media_attachments;
    // The attachment's id is the media's: what an app resends is what it uploaded.
    expect(att.id).toBe(media.body.id);
    expect(att.meta?.original ?? null).not.toBeUndefined();
    const edited = await a.raw.request("PUT", `/api/v1/statuses/${posted.body.id}`, {
      status: "With a picture, edited",
      media_ids: [att.id],
      media_attributes: [{ id: att.id, description: "better alt" }],
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.media_attachments).toHaveLength(1);
    expect(edited.body.media_attachments[0]).toMatchObject({ id: att.id, description: "better alt" });
    expect(edited.body.content).toContain("edited");
    const img = await new Client().get(new URL(edited.body.media_attachments[0].url).pathname);
    expect(img.status).toBe(200);

    // A note with a YouTube video, written on the web, edited from an app.
    const web = await a.p.post("/v1/notes", {
      label: "idea",
      content: "<p>watch this</p>",
      video: "https://youtu.be/dQw4w9WgXcQ",
    });
    const id = web.body.note.id;
    const put = await a.raw.request("PUT", `/api/v1/statuses/${id}`, { status: "watch this, edited" });
    expect(put.status).toBe(200);
    const after = await a.p.get(`/v1/notes/${id}`);
    expect(after.body.video).toBe("dQw4w9WgXcQ");
    expect(after.body.txt).toContain("edited");
  });
});
