import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { AppError, toErrorResponse, unauthorized } from "../../worker/lib/errors";

// The worker bundle holds two copies of lib/errors.ts (the worker's, and the Remix build's that pages
// call the API through). An AppError from one copy must still be an AppError to the other's onError:
// a page's refused session check is a 401 there, never an "unhandled" 500.
describe("AppError across module copies", () => {
  it("is recognised, and answered with its own status, by another copy's onError", async () => {
    // A second evaluation of the module: its own AppError class, as in the bundled build.
    // @ts-expect-error -- the query makes it a module of its own to vite; TypeScript knows no such file
    const other = (await import("../../worker/lib/errors.ts?copy")) as typeof import("../../worker/lib/errors");
    expect(other.AppError).not.toBe(AppError);
    const foreign = other.unauthorized();
    expect(foreign instanceof AppError).toBe(true);
    expect(unauthorized() instanceof other.AppError).toBe(true);
    expect(new Error("plain") instanceof AppError).toBe(false);
    expect((null as unknown) instanceof AppError).toBe(false);
    const app = new Hono()
      .get("/", () => {
        throw foreign;
      })
      .onError(toErrorResponse);
    const res = await app.request("/");
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: "unauthorized", message: "Please log in to continue." });
  });
});
