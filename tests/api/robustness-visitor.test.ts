// Issue 8 §1–2 for visitors: every route of the API's own route list, hostile input, no 5xx,
// and refused calls leave the database unchanged (see tests/fuzz.ts).
import { describe, expect, it } from "vitest";
import { visitor } from "../factories";
import { hammer, routes } from "../fuzz";

describe("hostile input from a visitor", () => {
  hammer(async () => visitor(), "visitor");
});

describe("the route list", () => {
  it("is read from the API itself", () => {
    expect(routes.length).toBeGreaterThan(30);
    expect(routes.some((r) => r.method === "PATCH" && r.path === "/v1/users/username")).toBe(true);
  });
});
