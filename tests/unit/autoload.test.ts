import { describe, expect, it } from "vitest";
import { AUTO_EMPTY_MAX, afterPage, autoLoads, type Loaded } from "~/lib/autoload";
import type { NoteJson, NoteList } from "../../worker/features/notes/notes.types";

const page = (n: number, notes: number): NoteList =>
  ({
    notes: Array.from({ length: notes }, (_, i) => ({ kind: "note", id: n * 100 + i }) as unknown as NoteJson),
    cursor: `c${n}`,
    paginator: { page: n, is_end: false },
  }) as unknown as NoteList;

describe("a list's infinite scroll after empty pages (following feed's walk, issue 19)", () => {
  it("stops loading by itself after AUTO_EMPTY_MAX empty pages in a row", () => {
    let l: Loaded = { base: "/", extra: [], last: null };
    for (let n = 2; n < 2 + AUTO_EMPTY_MAX; n++) {
      expect(autoLoads(l)).toBe(true);
      l = afterPage(l, page(n, 0));
    }
    expect(l.emptyRun).toBe(AUTO_EMPTY_MAX);
    expect(autoLoads(l)).toBe(false);
  });
  it("counts only empty pages in a row: a page with notes starts the count again", () => {
    let l: Loaded = { base: "/", extra: [], last: null };
    l = afterPage(l, page(2, 0));
    l = afterPage(l, page(3, 0));
    l = afterPage(l, page(4, 2));
    expect(l.emptyRun).toBe(0);
    expect(l.extra).toHaveLength(2);
    l = afterPage(l, page(5, 0));
    expect(autoLoads(l)).toBe(true);
  });
  it("a list stored before this rule (no count) still loads", () => {
    expect(autoLoads({})).toBe(true);
  });
});
