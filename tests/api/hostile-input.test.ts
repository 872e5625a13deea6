// Issue 20 §3: inputs that used to answer 500 (a code point past U+10FFFF in HTML, "%" in a path
// decoded twice) now answer 4xx, or work when they are real data (a label such as "100% done").
import { describe, expect, it } from "vitest";
import { user, visitor } from "../factories";

const ENTITIES = [
  "&#99999999;",
  "&#x110000;",
  "&#xFFFFFFFFFF;",
  "&#1114112;",
  "&#0;",
  "&#xD800;",
  `&#${"9".repeat(400)};`,
];

describe("numeric character references out of range (issue 20 §3)", () => {
  it.each(ENTITIES)("%s in a note, a reply and a quote is not a 500", async (entity) => {
    const a = await user();
    const note = await a.post("/v1/notes", { label: "idea", content: `<p>a ${entity} b</p>` });
    expect(note.status).toBe(201);
    const id = note.body.note.id;
    const reply = await a.post("/v1/replies", { parent: -id, content: `<p>r ${entity}</p>` });
    expect(reply.status).toBe(201);
    const quote = await a.post("/v1/renotes", { renote_id: id, content: `<p>q ${entity}</p>`, quote: true });
    expect(quote.status).toBe(201);
    const edited = await a.patch("/v1/notes", { id, label: "idea", content: `<p>${entity}</p>` });
    // Only the entity: its text may be empty (422 with the spec's message) but never a 500.
    expect([200, 422]).toContain(edited.status);
    // The text read back holds no invalid code point.
    const read = await a.get(`/v1/notes/${id}`);
    expect(read.status).toBe(200);
  });
});

describe("percent signs in paths (issue 20 §3)", () => {
  it("a label with % works end to end: the note and its label page", async () => {
    const a = await user();
    const note = await a.post("/v1/notes", { label: "100% done", content: "<p>shipped</p>" });
    expect(note.status).toBe(201);
    const list = await visitor().get(`/v1/labels/${encodeURIComponent("100% done")}`);
    expect(list.status).toBe(200);
    expect(list.body.notes.map((n: { id: number }) => n.id)).toContain(note.body.note.id);
  });

  it.each(["%25", "%", "%E0%A4%A", "%25%25", "a%2Fb"])("GET /v1/labels/%s answers 200 or 4xx", async (raw) => {
    const res = await visitor().get(`/v1/labels/${raw}`);
    expect(res.status).toBeLessThan(500);
  });

  it.each(["%", "%25", "u/1/note/%zz.png", "%E0%A4%A"])("GET /img/%s is a 404", async (raw) => {
    expect((await visitor().get(`/img/${raw}`)).status).toBe(404);
  });

  it.each(["%", "%25", "u/1/note/%zz.png"])("PUT /v1/uploads/%s is a 400", async (raw) => {
    const res = await visitor().request("PUT", `/v1/uploads/${raw}?exp=1&max=1&sig=x`, "x", {
      "content-type": "image/png",
    });
    expect(res.status).toBe(400);
  });
});
