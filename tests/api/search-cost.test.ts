// Issue 18: a search reads a bounded number of D1 rows however many notes match or exist. The
// window of MAX_RANKED newest matches is walked once for its ids and ranks and sorted once;
// authors, folders and viewer state are joined to the page's rows only.
import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { meterFromHeader } from "../../worker/db/meter";
import { MAX_RANKED } from "../../worker/features/search/search.service";
import { PAGE_SIZE } from "../../worker/lib/paging";
import { type TestUser, user, visitor } from "../factories";
import type { Res } from "../http";

/** What a list may read (tests/api/meter.test.ts), plus the window: its ids, then its sort. */
const BUDGET = 2 * MAX_RANKED + 10 * PAGE_SIZE + 60;
const meterOf = (res: Res) => meterFromHeader(res.headers.get("server-timing"));
let author: TestUser;
let reader: TestUser;

/** `n` more notes in bulk SQL (the triggers index them): every one says "costly", one in 100 "scarcely". */
async function bulkNotes(n: number) {
  const seq = `with recursive s(n) as (select 1 union all select n + 1 from s where n < ${n})`;
  await env.DB.prepare(
    `insert into notes (user_id, label, content, txt, created_at, noted_at) ${seq} select ?1, 'idea', '<p>x</p>', 'costly words number ' || n || case when n % 100 = 0 then ' scarcely' else '' end, n, n from s`,
  )
    .bind(author.id)
    .run();
}

async function rowsRead(path: string, who?: TestUser) {
  const res = await (who ?? visitor()).get(path);
  expect(res.status, path).toBe(200);
  return { read: meterOf(res).read, res };
}

beforeAll(async () => {
  [author, reader] = [await user(), await user()];
  await bulkNotes(10_000);
});

describe("search cost in D1 rows read (issue 18)", () => {
  const queries = ["costly", "cost", "co", "costly words", "words costl", "scarcely"];

  it("holds every page of a common word to the window's budget, signed in or not, whatever the table holds", async () => {
    const before: Record<string, number> = {};
    for (const q of queries) {
      for (const who of [undefined, reader]) {
        const first = await rowsRead(`/v1/search?q=${encodeURIComponent(q)}&t=notes`, who);
        expect(first.res.body.notes, q).toHaveLength(PAGE_SIZE);
        expect(first.read, `${q} page 1`).toBeLessThanOrEqual(BUDGET);
        const next = await rowsRead(
          `/v1/search?q=${encodeURIComponent(q)}&t=notes&cursor=${first.res.body.cursor}`,
          who,
        );
        expect(next.read, `${q} page 2`).toBeLessThanOrEqual(BUDGET);
        if (!who) before[q] = first.read;
      }
    }
    // Twice the notes, twice the matches: the same rows read (a word in fewer notes than the window
    // holds reads a little more with its matches, up to the same bound).
    await bulkNotes(10_000);
    for (const q of queries.filter((q) => q !== "scarcely"))
      expect((await rowsRead(`/v1/search?q=${encodeURIComponent(q)}&t=notes`)).read, q).toBe(before[q]);
  });

  it("reads people along two index ranges: a few rows per person shown", async () => {
    for (const q of ["cos", author.username.slice(0, 5), "test us", "zzzz"]) {
      expect((await rowsRead(`/v1/search?q=${encodeURIComponent(q)}&t=users`)).read, q).toBeLessThanOrEqual(
        3 * PAGE_SIZE + 10,
      );
    }
  });
});
