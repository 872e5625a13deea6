import type { ClientActionFunctionArgs } from "@remix-run/react";
import { useMemo, useSyncExternalStore } from "react";

/**
 * What the browser last learned of a note's or reply's counters (issue 21 item 10).
 *
 * A card's counters come from the list it belongs to, and lists age differently: the first page is
 * reloaded after every action, later pages (loaded by scrolling) and pages restored on Back are as
 * old as when they were fetched, and one note can be on the page twice (an original and its
 * renote). So every server answer about a counter is kept here with the moment it was learned, a
 * list's object gets the moment it was first shown, and each card shows, field by field, whichever
 * is newer. The moments are a counter, not a clock: only their order matters.
 */
export interface Counts {
  liked: boolean;
  likenum: number;
  renoted: boolean;
  renum: number;
}
type Kind = "note" | "reply";
const FIELDS = ["liked", "likenum", "renoted", "renum"] as const;
type Learned = { [F in keyof Counts]?: { value: Counts[F]; at: number } };

let moment = 0;
const shownAt = new WeakMap<object, number>();
const learned = new Map<string, Learned>();
const listeners = new Map<string, Set<() => void>>();

/** When a server object was first shown: its counters are as of then. */
function ageOf(source: object): number {
  let at = shownAt.get(source);
  if (at === undefined) {
    at = ++moment;
    shownAt.set(source, at);
  }
  return at;
}

/** Objects kept from an earlier visit (a list restored on Back): older than anything learned since. */
export function markOld(source: object) {
  shownAt.set(source, 0);
}

/** A server answer about `id`'s counters (only the fields it knows). */
export function learn(kind: Kind, id: number, counts: Partial<Counts>) {
  const key = `${kind}:${id}`;
  const at = ++moment;
  const next: Learned = { ...learned.get(key) };
  // An answer carries more than counters (an id): only these four are kept.
  for (const field of FIELDS) {
    const value = counts[field];
    if (value !== undefined) (next as Record<string, unknown>)[field] = { value, at };
  }
  learned.set(key, next);
  for (const notify of listeners.get(key) ?? []) notify();
}

function subscribe(key: string) {
  return (notify: () => void) => {
    const set = listeners.get(key) ?? new Set();
    listeners.set(key, set);
    set.add(notify);
    return () => {
      set.delete(notify);
      if (!set.size) listeners.delete(key);
    };
  };
}

/**
 * `source`'s counters for `id` (the note or reply object they came with), each replaced by a
 * later answer about the same one, wherever on the page that answer came from.
 */
export function useCounts<F extends keyof Counts>(
  kind: Kind,
  id: number,
  source: object,
  own: Pick<Counts, F>,
): Pick<Counts, F> {
  const key = `${kind}:${id}`;
  // The server has learned nothing: its snapshot is always undefined, so hydration matches.
  const known = useSyncExternalStore(
    useMemo(() => subscribe(key), [key]),
    () => learned.get(key),
    () => undefined,
  );
  // Stamped on first sight, whether or not anything is known yet: an answer learned later wins.
  const age = ageOf(source);
  if (!known) return own;
  const out = { ...own };
  for (const field of Object.keys(own) as F[]) {
    const k = known[field];
    if (k && k.at > age) (out as Record<string, unknown>)[field] = k.value;
  }
  return out;
}

/**
 * The like and renote actions' clientAction: their answer is learned when it arrives, not when a
 * card renders it. A card can leave the page while its request is on the way (a tap on another
 * note): on Back its list comes from the session's store, as old as when it was loaded, and only
 * what was learned here brings it up to date.
 */
export async function learnAnswer({ request, serverAction }: ClientActionFunctionArgs) {
  const form = await request.clone().formData();
  const answer = await serverAction<{ ok: boolean; data?: Partial<Counts> }>();
  if (answer?.ok && answer.data)
    learn(form.get("t") === "reply" ? "reply" : "note", Number(form.get("id")), answer.data);
  return answer;
}
