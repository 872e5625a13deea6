// Decision records are numbered 001, 002, … with no gap and no number used twice, and every
// `docs/decisions/…md` named anywhere in the repository is a record that exists.
import { describe, expect, it } from "vitest";

const records = Object.keys(import.meta.glob("../../docs/decisions/*.md")).map((p) => p.split("/").pop() ?? "");

const sources = import.meta.glob(
  ["../../{worker,app,scripts,tests}/**/*.{ts,tsx,mjs,js,css}", "../../*.md", "../../docs/**/*.md"],
  { query: "?raw", import: "default", eager: true },
) as Record<string, string>;

describe("decision records", () => {
  it("are numbered from 001 without gaps or duplicates", () => {
    const numbers = records.map((name) => /^(\d{3})-[a-z0-9-]+\.md$/.exec(name)?.[1] ?? `unnumbered: ${name}`);
    expect(numbers.sort()).toEqual(records.map((_, i) => String(i + 1).padStart(3, "0")));
  });

  it("are named by links that resolve", () => {
    const missing: string[] = [];
    for (const [file, text] of Object.entries(sources))
      for (const [, name] of text.matchAll(/docs\/decisions\/([\w.-]+\.md)/g))
        if (!records.includes(name)) missing.push(`${file.replace(/^(\.\.\/)+/, "")} → ${name}`);
    expect(missing).toEqual([]);
  });
});
