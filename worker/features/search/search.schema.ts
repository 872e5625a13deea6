import { z } from "zod";
import { orElse } from "../../lib/params";
import { fold, type Terms, TOKEN } from "./search.highlight";

export const KINDS = ["notes", "users", "folders", "replies"] as const;
export type SearchKind = (typeof KINDS)[number];

/** Only this much of a query is read: a 10 KB paste searches its first words, never fails. */
const MAX_QUERY = 500;
const MAX_TOKENS = 12;
const MAX_TOKEN = 64;

export const SearchQuery = z.object({
  q: orElse(z.string(), "").transform((s) => s.slice(0, MAX_QUERY)),
  // An unknown kind searches notes, as the page's first tab does.
  t: orElse(z.enum(KINDS), "notes"),
  page: orElse(z.coerce.number().int().min(1).max(100_000), 1),
  cursor: z.string().max(200).optional(),
  // `suggest=1` with t=users: the composer's @-mention suggestions (a few people, followed first, no paging).
  suggest: orElse(z.literal("1").optional(), undefined).transform((v) => v === "1"),
});

/** The words of a user's query (at most MAX_TOKENS, each cut to MAX_TOKEN), folded as the index folds them. */
export function queryTerms(q: string): Terms | null {
  const words = (q.match(TOKEN) ?? []).slice(0, MAX_TOKENS).map((w) => fold(w.slice(0, MAX_TOKEN)));
  const kept = words.filter(Boolean);
  if (!kept.length) return null;
  // The prefix index starts at two characters: a one-letter last word is a word, not "everything".
  return { words: kept, prefix: [...kept[kept.length - 1]].length >= 2 };
}

/** The prefix indexes (`prefix='2 3'` in the migration): a last word this short reads one of them. */
const INDEXED_PREFIX = 3;

/**
 * How the ranked search matches the terms. Every word is quoted (so quotes, AND/OR/NOT/NEAR,
 * column filters, `*` and `^` are plain text) and required. The last word is a prefix: read from a
 * prefix index up to three characters (`"co"*`); longer, FTS5 would merge the doclists of every
 * term it starts in full (800 ms of D1 time for a word in each of 1M notes), so the query names
 * at most EXPANSIONS of those terms itself, taken from the index's term list (`expand`).
 */
export type MatchPlan = { q: string } | { head: string; last: string };

export function matchPlan({ words, prefix }: Terms): MatchPlan {
  const quoted = words.map((w) => `"${w}"`);
  const last = words[words.length - 1];
  if (!prefix) return { q: quoted.join(" ") };
  if ([...last].length <= INDEXED_PREFIX) return { q: `${quoted.join(" ")}*` };
  // FTS5 reads `"a" (...)` as a syntax error: the group joins the other words by an explicit AND.
  return {
    head: quoted
      .slice(0, -1)
      .map((w) => `${w} AND `)
      .join(""),
    last,
  };
}

/** A person's search text as a lowercase prefix of username or name ("@ada" → "ada"); null when empty. */
export function userPrefix(q: string): string | null {
  const p = q.trim().replace(/^@+/, "").replace(/\s+/g, " ").toLowerCase().slice(0, 100);
  return p || null;
}
