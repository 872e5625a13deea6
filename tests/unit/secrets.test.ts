// The configuration rules shared by the worker and `npm run deploy` (worker/lib/secrets.js).
import { describe, expect, it } from "vitest";
import example from "../../.dev.vars.example?raw";
import vitestConfig from "../../vitest.config.ts?raw";
import e2eServer from "../../scripts/e2e-server.mjs?raw";
import {
  configProblems,
  EXAMPLE_VALUES,
  neededSecrets,
  SECRETS,
  secretProblem,
  varProblems,
} from "../../worker/lib/secrets.js";

const byName = (name: string) => SECRETS.find((s) => s.name === name) ?? SECRETS[0];
const names = SECRETS.map((s) => s.name).join("|");

describe("secret rules", () => {
  it("knows every secret value the repository ships, and each of those is refused", () => {
    const fromExample = example
      .split("\n")
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => l.slice(l.indexOf("=") + 1).trim());
    // `NAME: "value"` for a secret's name in the test config and the e2e server.
    const quoted = new RegExp(`\\b(?:${names}): "([^"]*)"`, "g");
    const fromCode = [...`${vitestConfig}\n${e2eServer}`.matchAll(quoted)].map((m) => m[1]);
    expect(fromExample.length).toBeGreaterThan(3);
    expect(fromCode.length).toBeGreaterThan(3);
    for (const v of [...fromExample, ...fromCode]) expect(EXAMPLE_VALUES.has(v), v).toBe(true);
    expect(secretProblem(byName("GOOGLE_CLIENT_SECRET"), "local-secret")).toMatch(/example value/);
  });

  it("wants 32 bytes in our own keys only, counted in bytes", () => {
    expect(secretProblem(byName("TOKEN_SECRET"), "é".repeat(16))).toBeNull(); // 32 bytes, 16 chars
    expect(secretProblem(byName("TOKEN_SECRET"), "x".repeat(31))).toBe("TOKEN_SECRET is shorter than 32 bytes");
    expect(secretProblem(byName("GOOGLE_CLIENT_SECRET"), "short")).toBeNull();
    expect(secretProblem(byName("UPLOAD_SECRET"), "   ")).toBe("UPLOAD_SECRET is not set");
  });

  it("asks for the R2 S3 credentials only in s3 upload mode, and nothing under APP_ENV=local", () => {
    expect(neededSecrets({ UPLOAD_MODE: "local" }).map((s) => s.name)).not.toContain("R2_SECRET_ACCESS_KEY");
    expect(neededSecrets({ UPLOAD_MODE: "s3" }).map((s) => s.name)).toContain("R2_SECRET_ACCESS_KEY");
    expect(configProblems({ APP_ENV: "local" })).toEqual([]);
    expect(configProblems({ APP_ENV: "production", UPLOAD_MODE: "local" })).toEqual([
      "APP_ORIGIN is not set",
      "MAIL_FROM is not set",
      "TOKEN_SECRET is not set",
      "UPLOAD_SECRET is not set",
      "FEDERATION_SECRET is not set",
      "GOOGLE_CLIENT_ID is not set",
      "GOOGLE_CLIENT_SECRET is not set",
    ]);
  });

  it("wants APP_ORIGIN an https origin and MAIL_FROM an address, placeholders refused", () => {
    const ok = { APP_ORIGIN: "https://notex.example.org", MAIL_FROM: "NoteX <no-reply@notex.example.org>" };
    expect(varProblems(ok)).toEqual([]);
    expect(varProblems({ ...ok, APP_ORIGIN: "https://notex.example.org/" })).toEqual([]);
    expect(varProblems({ ...ok, MAIL_FROM: "no-reply@notex.example.org" })).toEqual([]);
    expect(varProblems({ ...ok, APP_ORIGIN: "https://notex.example.org/app" })).toEqual([
      "APP_ORIGIN is not an https origin",
    ]);
    expect(varProblems({ ...ok, APP_ORIGIN: "notex.example.org" })).toEqual(["APP_ORIGIN is not an https origin"]);
    expect(varProblems({ ...ok, APP_ORIGIN: "https://REPLACE_WITH_YOUR_HOST" })).toEqual([
      "APP_ORIGIN is a placeholder",
    ]);
    expect(varProblems({ ...ok, MAIL_FROM: "NoteX" })).toEqual(["MAIL_FROM is not a mail address"]);
  });
});
