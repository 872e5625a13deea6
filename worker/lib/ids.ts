// Row ids made in the worker, so an action knows the id of what it inserts before its one batch
// (its notices, mappings and answer name it directly, instead of finding the row again after the
// insert). Layout, after Mastodon's snowflake ids (48 bits of milliseconds, 16 of sequence) but
// inside a JS number (< 2^53, exact in JSON and in D1's integers):
//
//   id = (milliseconds since ID_EPOCH) × 2^12 + low        low: 12 bits, 0..4095
//
// 41 bits of milliseconds reach 2094. Ids sort by the time they were made, to the millisecond.
// `low` starts at a random value in each call and never falls to or below the isolate's last id, so
// one isolate never makes the same id twice and its ids always grow. Its lowest bit says the table:
// even a note, odd a reply. Two isolates collide only when both make an id of one table in the same
// millisecond with the same 11 random bits: 1 in 2048 for such a pair, which at NoteX's rates of
// posting (a few a second at most) is rare; the batch that meets it fails whole (the primary key
// refuses the row) and the person posts again.
//
// One id space for notes and replies, so an id names one row of one of the two tables and which
// one follows from the id (kindOfId) without a look-up: the notes made before worker ids keep the
// ids SQLite counted up from 1 (far below 2^40), the replies made before moved to LEGACY_REPLIES +
// their old id (migration 0040, below 2^41), and every id made here since 2026-02 is above 2^47.

/** 2025-01-01T00:00:00Z. */
export const ID_EPOCH = 1_735_689_600_000;
const LOW = 4096;

/** Where the replies made before worker ids begin (2^40): every note id made by SQLite is below. */
export const LEGACY_REPLIES = 2 ** 40;

export type IdKind = "note" | "reply";
const BIT: Record<IdKind, number> = { note: 0, reply: 1 };

let last = 0;

/**
 * A new id (time-ordered, unique, < 2^53): for a note or reply row, its lowest bit says which; a
 * row of another table (`kind` none) takes any.
 */
export function newId(kind?: IdKind, now = Date.now()): number {
  const low = crypto.getRandomValues(new Uint16Array(1))[0] % LOW;
  const above = Math.max((now - ID_EPOCH) * LOW + low, last + 1);
  const made = kind === undefined || above % 2 === BIT[kind] ? above : above + 1;
  last = made;
  return made;
}

/** When `id` was made (ms since 1970), for an id made by newId. */
export const madeAt = (id: number) => Math.floor(id / LOW) + ID_EPOCH;

/** Whether `id` names a note or a reply (the ranges above; past them, the id's lowest bit). */
export const kindOfId = (id: number): IdKind =>
  id < LEGACY_REPLIES ? "note" : id < 2 * LEGACY_REPLIES || id % 2 === 1 ? "reply" : "note";

/**
 * A reply's number in its addresses (/ap/notes/r{n}, /{name}/rep/{n}): a reply made before worker
 * ids keeps the number it was published under (its old id), so the copies other servers hold and
 * links shared elsewhere still name it. replyOfNumber is the inverse.
 */
export const replyNumber = (id: number) => (id >= LEGACY_REPLIES && id < 2 * LEGACY_REPLIES ? id - LEGACY_REPLIES : id);
export const replyOfNumber = (n: number) => (n < LEGACY_REPLIES ? n + LEGACY_REPLIES : n);
