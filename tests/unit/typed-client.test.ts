// The pages' typed client (app/lib/api.server.ts) reads each answer's type from the route's declared
// response (@hono/zod-openapi), so a route declared without its type would hand pages `unknown`
// JSON. These are checked by `tsc` (expectTypeOf is types only); the test run just lists them.
import { describe, expectTypeOf, it } from "vitest";
import type { PageApi } from "../../app/lib/api.server";

/** The JSON a typed call answers with a 2xx. */
type Answer<F> = F extends (...args: never[]) => Promise<infer R>
  ? R extends { ok: true; json(): Promise<infer J> }
    ? J
    : R extends { json(): Promise<infer J> }
      ? J
      : never
  : never;

type V1 = PageApi["v1"];

describe("the typed client's answers", () => {
  it("are the handlers' own types, never any or bare JSON", () => {
    expectTypeOf<Answer<V1["likes"][":id"]["$post"]>>().toEqualTypeOf<{ liked: boolean; likenum: number }>();
    expectTypeOf<Answer<V1["bookmarks"][":id"]["$post"]>>().toHaveProperty("bookmarked");
    expectTypeOf<Answer<V1["notes"][":id"]["$get"]>>().toHaveProperty("content");
    expectTypeOf<Answer<V1["notes"]["$post"]>>().toHaveProperty("note");
    expectTypeOf<Answer<V1["search"]["$get"]>>().not.toBeAny();
    expectTypeOf<Answer<V1["follows"][":uid"]["$post"]>>().not.toBeAny();
    expectTypeOf<Answer<V1["blocks"][":uid"]["$post"]>>().not.toBeAny();
    expectTypeOf<Answer<V1["me"]["$get"]>>().toHaveProperty("username");
    expectTypeOf<Answer<V1["login"]["$post"]>>().toHaveProperty("token");
    expectTypeOf<Answer<V1["reports"]["$post"]>>().toEqualTypeOf<{ reported: true; blocking: boolean }>();
  });
});
