// A batch's results are read by name, never by position: a batch is sent through the named helpers
// (namedRead, namedDrizzleRead, runNamed, sendNamed: worker/db/), whose callers name each
// statement and read each result by that name. By-place reads — `results[0]`, `results.at(-1)`,
// `results.slice(a + b)`, a destructuring with holes (`[read, , count]`) or an index on a batch's
// answer — tie an answer to the order of a list written elsewhere, and fail this test.
import { describe, expect, it } from "vitest";
import { oneLine, SOURCES } from "./sources";

/** The helpers themselves pair names with places, once. */
const HELPERS = new Set(["worker/db/reads.ts", "worker/db/client.ts", "worker/db/plan.ts"]);

const BY_PLACE: [string, RegExp][] = [
  // `results` as a batch's list (a D1Result's own `.results` are one statement's rows).
  ["results by index", /(?<![.\w])results\s*(\[\s*\d+\s*\]|\.at\(|\.slice\(|\[\s*\w+\.(indexOf|length))/],
  ["results cast to a tuple", /(?<![.\w])results\)?\s+as\s+\[/],
  [
    "a batch destructured with holes",
    /\[[^\]=;]*(\[\s*,|,\s*,)[^=;]*\]\s*=\s*\(?\s*await\s+[\w.$]*\b(batch|runBatch)\b/,
  ],
  ["a batch's answer indexed", /\b(batch|runBatch)\b\([^;]*?\]\)\s*\)\s*\[\s*\d/],
  ["a batch's answer cast to a tuple", /\b(batch|runBatch)\b\([^;]*?\]\)\s*\)\s+as\s+\[/],
];

describe("batch results", () => {
  it("are read by name, never by position", () => {
    const found: string[] = [];
    for (const [file, text] of SOURCES) {
      if (HELPERS.has(file)) continue;
      const flat = oneLine(text);
      for (const [what, re] of BY_PLACE) if (re.test(flat)) found.push(`${file}: ${what}`);
    }
    expect(found).toEqual([]);
  });
});
