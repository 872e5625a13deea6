// A JSON body is judged by what it holds, whatever its Content-Type: the routes declared for
// @hono/zod-openapi validate it with their zod schemas and the spec's messages, as before.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { type TestUser, user, users } from "../factories";
import { BASE } from "../http";
import worker from "../worker";

async function note(u: TestUser) {
  const res = await u.post("/v1/notes", { label: "idea", content: "<p>a note to report</p>" });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.note.id as number;
}

/** A request whose body has no Content-Type at all (a byte array: fetch adds none). */
async function typeless(u: TestUser, path: string, body: string) {
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    new Request(`${BASE}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${u.token}`, "cf-connecting-ip": u.ip },
      body: new TextEncoder().encode(body),
    }),
    env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe("a JSON body, whatever its Content-Type", () => {
  it("is read as JSON when sent as text/plain or with no type at all", async () => {
    const [author, a, b] = await users(3);
    const id = await note(author);
    const plain = await a.post("/v1/reports", JSON.stringify({ nid: id, kind: 1 }), { "content-type": "text/plain" });
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    expect(plain.body).toEqual({ reported: true, blocking: false });
    const none = await typeless(b, "/v1/reports", JSON.stringify({ nid: id, kind: 2 }));
    expect(none.status, JSON.stringify(none.body)).toBe(201);
  });

  it("answers a form-encoded body 400 (not JSON), an array 400, an empty body with the fields' messages", async () => {
    const [author, a] = await users(2);
    const id = await note(author);
    const form = await a.post("/v1/reports", `nid=${id}&kind=1`, {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(form.status).toBe(400);
    expect(form.body).toEqual({ code: "bad_json", message: "Request body is not valid JSON." });
    const list = await a.post("/v1/reports", "[1,2]");
    expect(list.body).toEqual({ code: "bad_json", message: "Request body must be a JSON object." });
    const empty = await a.post("/v1/reports", "");
    expect(empty.status).toBe(422);
    expect(empty.body).toMatchObject({ code: "invalid_input", message: "nid is required" });
    const reason = await a.post("/v1/reports", { nid: id }, { "content-type": "text/plain" });
    expect(reason.status).toBe(422);
    expect(reason.body).toEqual({
      code: "invalid_input",
      message: "Please select a reason.",
      fields: { kind: "Please select a reason." },
    });
  });

  it("answers 413 over 1 MB, whatever the type says", async () => {
    const [author, a] = await users(2);
    const id = await note(author);
    const big = { nid: id, kind: 1, note: "x".repeat(1_100_000) };
    expect((await a.post("/v1/reports", big)).status).toBe(413);
    expect((await a.post("/v1/reports", JSON.stringify(big), { "content-type": "text/plain" })).status).toBe(413);
    const one = await user();
    expect((await typeless(one, "/v1/reports", JSON.stringify(big))).status).toBe(413);
  });

  it("answers a bad path or query 400 with the field's message, before anything is read", async () => {
    const a = await user();
    const res = await a.post("/v1/likes/abc");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_input");
    expect(Object.keys(res.body.fields)).toEqual(["id"]);
    const kind = await a.post("/v1/likes/1?t=poem");
    expect(kind.body).toEqual({
      code: "invalid_input",
      message: "t must be one of note, reply, company, project, skill",
      fields: { t: "t must be one of note, reply, company, project, skill" },
    });
  });
});
