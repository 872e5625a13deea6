// Pages call the API in process through the typed client (app/lib/api.server.ts), which puts every
// `param` into its path segment encoded: a username, slug or label from the address is one segment,
// so "/%2E%2E%2Fme" asks for the person named "../me" (no one), never for GET /v1/me.
import { createExecutionContext, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { apiFor, result } from "../../app/lib/api.server";
import { user } from "../factories";

const pageApi = (cookie: string) =>
  apiFor(new Request("http://notex.test/some/page", { headers: { cookie } }), {
    cloudflare: { env, ctx: createExecutionContext() },
  } as never);

describe("path segments of in-process API calls", () => {
  it.each(["../me", "..", "a/../../me", "%2E%2E%2Fme", "me/../me"])(
    "the person named %s is no one: a 404",
    async (name) => {
      const a = await user();
      const res = await result(pageApi(a.cookie ?? "").v1.users[":username"].$get({ param: { username: name } }));
      expect(res.status, JSON.stringify(res.ok ? res.data : res.error)).toBe(404);
    },
  );

  it("a note's address under such a name is a 404", async () => {
    const a = await user();
    const id = (await a.post("/v1/notes", { label: "idea", content: "<p>x</p>" })).body.note.id;
    const api = pageApi(a.cookie ?? "");
    const asked = await result(
      api.v1.notes[":username"][":id"].$get({ param: { username: "../notes", id: String(id) } }),
    );
    expect(asked.status).toBe(404);
    // The real name and text with reserved characters still reach the API as they are.
    expect((await result(api.v1.users[":username"].$get({ param: { username: a.username } }))).status).toBe(200);
    await a.post("/v1/notes", { label: "100% done/ok?", content: "<p>y</p>" });
    const label = await result(api.v1.labels[":label"].$get({ param: { label: "100% done/ok?" }, query: { page: "1" } }));
    expect(label.ok && label.data.notes.length).toBeGreaterThan(0);
  });
});
