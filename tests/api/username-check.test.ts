import { describe, expect, it } from "vitest";
import { user, visitor } from "../factories";

describe("GET /v1/signup/username/:username", () => {
  it("answers whether a username can be had: its rules first (spec 5 words), then whether it is held", async () => {
    const held = await user();
    const ask = async (name: string) =>
      (await visitor().get(`/v1/signup/username/${encodeURIComponent(name)}`)).body as {
        available: boolean;
        message: string | null;
      };
    expect(await ask("freshname_1")).toEqual({ available: true, message: null });
    expect(await ask(held.username)).toEqual({
      available: false,
      message: "Username already exists. Please choose another.",
    });
    expect(await ask(held.username.toUpperCase())).toMatchObject({ available: false });
    expect(await ask("abc")).toEqual({ available: false, message: "username must be at least 5 characters" });
    expect(await ask("1abcde")).toEqual({ available: false, message: "first character must be a letter (a-z)" });
    expect(await ask("settings")).toEqual({ available: false, message: "username is already taken" });
  });
});
