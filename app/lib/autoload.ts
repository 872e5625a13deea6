import type { NoteJson, NoteList as List } from "../../worker/features/notes/notes.types";

/** The pages loaded after the first, for one list (base: its page URL without overlays). */
export interface Loaded {
  base: string;
  extra: NoteJson[];
  last: List | null;
  /** How many pages in a row came back empty (a following feed's walk found nothing in its window). */
  emptyRun?: number;
}

/**
 * Scrolling loads the next page by itself until this many pages in a row came back empty; then
 * "More" waits for a click. A reader who follows many people who rarely write would otherwise
 * send request after request, each walking an empty stretch of the feed (feed.service.ts).
 */
export const AUTO_EMPTY_MAX = 3;
export const autoLoads = (l: Pick<Loaded, "emptyRun">) => (l.emptyRun ?? 0) < AUTO_EMPTY_MAX;
export const afterPage = (l: Loaded, got: List): Loaded => ({
  ...l,
  extra: [...l.extra, ...got.notes],
  last: got,
  emptyRun: got.notes.length ? 0 : (l.emptyRun ?? 0) + 1,
});
