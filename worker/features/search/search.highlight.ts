// Highlighting in the worker instead of FTS5's snippet()/highlight(): those run for every row a
// ranked query sorts (they need the FTS cursor, so they cannot wait for the page's 20 rows) and
// read each row's text again. This marks the same words on the page's rows only.

/** Highlighted text as alternating runs: even indexes plain, odd indexes matched (rendered as <mark>). */
export type Snippet = string[];

/** What FTS5's unicode61 tokenizer keeps as token characters (letters, digits, marks). */
export const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/** A token as `unicode61 remove_diacritics 2` compares it: without marks, case folded. */
export const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** The words a query searches for (folded), the last one a prefix when `prefix` says so. */
export interface Terms {
  words: string[];
  prefix: boolean;
}

function matcher({ words, prefix }: Terms) {
  const exact = new Set(words);
  const last = words[words.length - 1] ?? "";
  return (token: string) => {
    const t = fold(token);
    return exact.has(t) || (prefix && t.startsWith(last));
  };
}

/** Splits `text` into runs at the tokens in `[from, to)` that match. */
function runs(text: string, tokens: RegExpMatchArray[], marks: boolean[], from: number, to: number): Snippet {
  const out: Snippet = [];
  let plain = "";
  let at = from === 0 ? 0 : (tokens[from].index ?? 0);
  const end = to >= tokens.length ? text.length : (tokens[to - 1].index ?? 0) + tokens[to - 1][0].length;
  for (let i = from; i < to; i++) {
    if (!marks[i]) continue;
    const start = tokens[i].index ?? 0;
    plain += text.slice(at, start);
    out.push(plain, tokens[i][0]);
    plain = "";
    at = start + tokens[i][0].length;
  }
  out.push(plain + text.slice(at, end));
  if (from > 0) out[0] = `…${out[0]}`;
  if (to < tokens.length) out[out.length - 1] += "…";
  return out;
}

/**
 * The stretch of `text` of at most `size` tokens that holds the most matches (a few tokens of
 * context before the first), as runs; the whole text when it is that short.
 */
export function snippet(text: string, terms: Terms, size: number): Snippet {
  const tokens = [...text.matchAll(TOKEN)];
  const isMatch = matcher(terms);
  const marks = tokens.map((t) => isMatch(t[0]));
  if (tokens.length <= size) return runs(text, tokens, marks, 0, tokens.length);
  let best = 0;
  let bestCount = -1;
  let count = 0;
  for (let i = 0; i < tokens.length; i++) {
    count += +marks[i];
    if (i >= size) count -= +marks[i - size];
    if (i >= size - 1 && count > bestCount) {
      bestCount = count;
      best = i - size + 1;
    }
  }
  // Start a little before the first match in the window, so it reads in context.
  const first = marks.indexOf(true, best);
  const from = first < 0 ? 0 : Math.max(0, Math.min(best, first - 3));
  return runs(text, tokens, marks, from, Math.min(tokens.length, from + size));
}

/** All of `text` with its matches marked (a folder's name). */
export const highlight = (text: string, terms: Terms): Snippet => snippet(text, terms, Number.POSITIVE_INFINITY);
