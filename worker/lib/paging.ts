import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { AppError } from "./errors";

export const PAGE_SIZE = 20;

export interface Keyset {
  at: number;
  id: number;
}

/** Opaque keyset cursor: base64url of [sort value, id]. */
export function encodeCursor(k: Keyset): string {
  return encodeBase64urlNoPadding(new TextEncoder().encode(JSON.stringify([k.at, k.id])));
}

export function decodeCursor(s: string | undefined): Keyset | null {
  if (!s) return null;
  try {
    const [at, id] = JSON.parse(new TextDecoder().decode(decodeBase64urlIgnorePadding(s)));
    if (Number.isSafeInteger(at) && Number.isSafeInteger(id)) return { at, id };
  } catch {}
  throw new AppError(400, "bad_cursor", "The page cursor is not valid.");
}

/**
 * Cuts a page out of size + 1 rows: the spec's paginator, and the cursor of the next page.
 * Lists ask for one row more than they show, so is_end needs no count query.
 */
export function pageOf<T>(rows: T[], page: number, key: (row: T) => Keyset, size = PAGE_SIZE) {
  const items = rows.slice(0, size);
  const isEnd = rows.length <= size;
  return {
    items,
    paginator: { page, is_end: isEnd },
    cursor: isEnd || !items.length ? null : encodeCursor(key(items[items.length - 1])),
  };
}

/**
 * How deep a page number alone may reach. Past it a list needs the cursor of the page before
 * (what infinite scroll and every More link send): an OFFSET reads every row it skips, so an
 * unbounded one would let one request walk a whole index. At page 5 it skips 80 rows, keeping a
 * list within its rows-read budget (10 × page size + a constant, tests/api/meter.test.ts).
 */
export const MAX_OFFSET_PAGE = 5;

/**
 * Where a list starts: after the cursor (keyset, constant cost at any depth), or — for a client
 * that only knows the spec's page number — a bounded offset (`maxPage`: a list whose skipped rows
 * cost more than an index entry each bounds it lower).
 */
export function startOf(
  q: { page: number; cursor?: string },
  maxPage = MAX_OFFSET_PAGE,
): { after: Keyset | null; offset: number } {
  const after = decodeCursor(q.cursor);
  if (!after && q.page > maxPage)
    throw new AppError(400, "page_needs_cursor", `Pages after ${maxPage} need the cursor of the page before them.`);
  return { after, offset: after ? 0 : (q.page - 1) * PAGE_SIZE };
}
