import { describe, expect, it } from "vitest";
import { api } from "../../worker/api";
import { readBody } from "../../worker/lib/validate";
import { openApiPath } from "../../worker/openapi";
import { visitor } from "../factories";

type Operation = {
  parameters?: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[];
  requestBody?: { content: { "application/json": { schema: { properties: Record<string, unknown> } } } };
  security?: unknown[];
};

describe("GET /v1/openapi.json", () => {
  it("describes every route of the Hono app, with the zod schemas its validators check", async () => {
    const res = await visitor().get("/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.body as { openapi: string; paths: Record<string, Record<string, Operation>> };
    expect(doc.openapi).toBe("3.1.0");
    const routes = [...new Set(api.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`))];
    expect(routes.length).toBeGreaterThan(60);
    const missing = routes.filter((key) => {
      const [method, path] = key.split(" ");
      return !doc.paths[openApiPath(path)]?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);
    // Every {name} in a path is declared as a required path parameter.
    for (const [path, ops] of Object.entries(doc.paths))
      for (const op of Object.values(ops))
        for (const [, name] of path.matchAll(/\{([^}]+)\}/g))
          expect(op.parameters?.find((p) => p.in === "path" && p.name === name)?.required, `${path} ${name}`).toBe(
            true,
          );

    const note = doc.paths["/v1/notes/{id}"].get;
    expect(note.parameters).toContainEqual(
      expect.objectContaining({ name: "id", in: "path", schema: expect.objectContaining({ type: "integer" }) }),
    );
    const discover = doc.paths["/v1/discover"].get;
    expect(discover.parameters?.map((p) => [p.name, p.in, p.required])).toEqual([
      ["page", "query", false],
      ["cursor", "query", false],
    ]);
    const create = doc.paths["/v1/notes"].post;
    expect(Object.keys(create.requestBody?.content["application/json"].schema.properties ?? {})).toEqual(
      expect.arrayContaining(["label", "content", "imgs", "folders", "alts"]),
    );
    expect(create.security).toBeDefined();
    expect(doc.paths["/v1/likes/{id}"].post.security).toBeDefined();
    expect(discover.security).toBeUndefined();
  });

  it("reads every declared JSON body whatever its type, and describes answers and refusals", async () => {
    const doc = (await visitor().get("/v1/openapi.json")).body as {
      paths: Record<string, Record<string, Operation & { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
    };
    // A route taking a JSON body runs readBody first (413, bad JSON, any Content-Type).
    const withBody = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => op.requestBody)
        .map(([method]) => [method.toUpperCase(), path] as const),
    );
    expect(withBody.length).toBeGreaterThan(0);
    const unread = withBody.filter(
      ([method, path]) =>
        !api.routes.some((r) => r.method === method && openApiPath(r.path) === path && r.handler === readBody),
    );
    expect(unread).toEqual([]);
    const report = doc.paths["/v1/reports"].post;
    expect(report.security).toEqual([{ session: [] }, { bearer: [] }]);
    expect(Object.keys(report.responses)).toEqual(expect.arrayContaining(["201", "4XX", "401", "429"]));
    expect(report.responses["4XX"]).toEqual({ $ref: "#/components/responses/Error" });
    expect(doc.components.schemas.Error).toBeDefined();
    expect(doc.paths["/v1/likes/{id}"].post.responses["200"]).toMatchObject({
      content: { "application/json": { schema: { type: "object", required: ["liked", "likenum"] } } },
    });
  });
});
