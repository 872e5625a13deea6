import { z } from "zod";

export const KINDS = ["notes", "users", "folders", "replies"] as const;
export type SearchKind = (typeof KINDS)[number];

/** Only this much of a query is read: a 10 KB paste searches its first words, never fails. */
const MAX_QUERY = 500;
const MAX_TOKENS = 12;
const MAX_TOKEN = 64;

export const SearchQuery = z.object({
  q: z
    .string()
    .catch("")
    .transform((s) => s.slice(0, MAX_QUERY)),
  // An unknown kind searches notes, as the page's first tab does.
  t: z.enum(KINDS).catch("notes"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  cursor: z.string().max(200).optional(),
});

// What FTS5's unicode61 tokenizer keeps as token characters (letters, digits, combining marks).
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * The FTS5 MATCH expression of a user's query, built from its words alone: every word quoted (so
 * quotes, AND/OR/NOT/NEAR, column filters, `*` and `^` are plain text), all of them required, and
 * the last one a prefix once it has two characters (the prefix index starts there). Null when the
 * query has no word at all.
 */
export function matchExpression(q: string): string | null {
  const words = (q.match(TOKEN) ?? []).slice(0, MAX_TOKENS).map((w) => w.slice(0, MAX_TOKEN));
  if (!words.length) return null;
  return words.map((w, i) => `"${w}"${i === words.length - 1 && [...w].length >= 2 ? "*" : ""}`).join(" ");
}

/** A person's search text as a lowercase prefix of username or name ("@ada" → "ada"); null when empty. */
export function userPrefix(q: string): string | null {
  const p = q.trim().replace(/^@+/, "").replace(/\s+/g, " ").toLowerCase().slice(0, 100);
  return p || null;
}
