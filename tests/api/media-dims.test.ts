// A picture's natural size and blurhash, kept at upload and said wherever the picture is: the note
// (pages reserve its box and paint its blur), Mastodon's media_attachments (meta and blurhash).
// The size comes from the image's header once its bytes arrive (whatever the browser declared);
// the blurhash from the browser's own decode, checked for its shape.
import { isBlurhashValid } from "blurhash";
import { describe, expect, it } from "vitest";
import { type TestUser, user } from "../factories";
import { Client, callWith } from "../http";
import { PNG } from "../images";
import { appToken } from "../mastodon";

/** A 4×3 blurhash, as Mastodon makes them. */
const HASH = "LEHV6nWB2yk8pyo0adR*.7kCMdnj";

/** The picture's own bytes to its signed link, as the browser sends them. */
const put = (link: string) => {
  const url = new URL(link);
  return callWith({}, `${url.pathname}${url.search}`, {
    method: "PUT",
    headers: { "content-type": "image/png" },
    body: PNG,
  });
};

/** A note with one uploaded picture, declared as the composer declares it. */
async function pictured(a: TestUser, declared: Record<string, unknown>) {
  const res = await a.post("/v1/uploads", { uploads: [{ file_size: PNG.length, file_ext: "png", ...declared }] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const [slot] = res.body.uploads;
  expect((await put(slot.put_link)).status).toBe(200);
  const made = await a.post("/v1/notes", { label: "idea", content: "<p>pictured</p>", imgs: slot.file_url });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.note.id as number;
}

describe("picture sizes and blurhashes", () => {
  it("an upload keeps its header's size and the composer's blurhash; the note says them", async () => {
    const a = await user();
    // The browser said 30×20; the bytes say 3×2, and the bytes win.
    const id = await pictured(a, { width: 30, height: 20, blurhash: HASH });
    const note = (await a.get(`/v1/notes/${id}`)).body;
    expect(note.dims).toEqual([{ width: 3, height: 2, blurhash: HASH }]);
    // In a list, and embedded in a quote, the same.
    const list = (await a.get(`/v1/notes?uid=${a.id}&page=1`)).body.notes;
    expect(list[0].dims).toEqual(note.dims);
    const quote = await a.post("/v1/renotes", { renote_id: id, content: "<p>look</p>" });
    expect(quote.status).toBe(201);
    expect((await a.get(`/v1/notes?uid=${a.id}&page=1`)).body.notes[0].renote.dims).toEqual(note.dims);
  });

  it("a blurhash that is not one is refused with words, and nothing is reserved", async () => {
    const a = await user();
    for (const blurhash of ["not a hash", "LEHV6nWB2yk8pyo0adR*.7kCMdn", "x".repeat(200)]) {
      const res = await a.post("/v1/uploads", { uploads: [{ file_size: 10, file_ext: "png", blurhash }] });
      expect(res.status).toBe(422);
      expect(JSON.stringify(res.body)).toMatch(/blurhash is not a valid blurhash/);
    }
    const huge = await a.post("/v1/uploads", {
      uploads: [{ file_size: 10, file_ext: "png", width: 70000, height: 2 }],
    });
    expect(huge.status).toBe(422);
  });

  it("Mastodon statuses carry each picture's meta and blurhash; an app's upload a placeholder hash", async () => {
    const a = await user();
    const id = await pictured(a, { blurhash: HASH });
    const { token } = await appToken(a, "read write");
    const app = new Client();
    app.token = token;
    const status = await app.get(`/api/v1/statuses/${id}`);
    expect(status.status).toBe(200);
    const [att] = status.body.media_attachments;
    expect(att.meta).toEqual({
      original: { width: 3, height: 2, size: "3x2", aspect: 1.5 },
      small: { width: 3, height: 2, size: "3x2", aspect: 1.5 },
    });
    expect(att.blurhash).toBe(HASH);
    // An app's upload: the worker reads its header (size), never its pixels (no blurhash of its own).
    const form = new FormData();
    form.set("file", new Blob([PNG], { type: "application/octet-stream" }), "picture");
    const up = await fetchForm(token, form);
    const posted = await app.post("/api/v1/statuses", { status: "From an app", media_ids: [up.id] });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    const [appAtt] = posted.body.media_attachments;
    expect(appAtt.meta.original).toEqual({ width: 3, height: 2, size: "3x2", aspect: 1.5 });
    expect(isBlurhashValid(appAtt.blurhash).result).toBe(true);
    // The note a page reads has the size too (no blurhash: none was made).
    const note = (await a.get(`/v1/notes/${posted.body.id}`)).body;
    expect(note.dims).toEqual([{ width: 3, height: 2, blurhash: null }]);
  });
});

async function fetchForm(token: string, form: FormData) {
  const res = await callWith({}, "/api/v2/media", {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  return (await res.json()) as { id: string };
}
