import type { NoteJson } from "../../../worker/features/notes/notes.types";

/** What a composer keeps between openings (sessionStorage, per note; "new" for a new one). */
export interface Draft {
  text: string;
  html: string;
  label: string;
  custom: string;
}

export const draftKey = (note?: NoteJson | null) => `notex:draft:${note?.id ?? "new"}`;

export function readDraft(key: string): Draft | null {
  try {
    return JSON.parse(sessionStorage.getItem(key) ?? "null");
  } catch {
    return null;
  }
}

export function writeDraft(key: string, d: Draft | null) {
  try {
    // The x-label alone is no draft: it is chosen for every new note.
    if (d && (d.text.trim() || d.custom)) sessionStorage.setItem(key, JSON.stringify(d));
    else sessionStorage.removeItem(key);
  } catch {}
}

/** The x-label a new note starts under, without JavaScript or before one was ever used. */
export const DEFAULT_LABEL = "note";
const LAST_LABEL = "notex:last-label";

/** The x-label this browser last posted under (localStorage), or null. */
export function lastLabel(): string | null {
  try {
    return localStorage.getItem(LAST_LABEL);
  } catch {
    return null;
  }
}

export function rememberLabel(label: string) {
  try {
    if (label) localStorage.setItem(LAST_LABEL, label);
  } catch {}
}
