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
    if (d && (d.text.trim() || d.custom || d.label)) sessionStorage.setItem(key, JSON.stringify(d));
    else sessionStorage.removeItem(key);
  } catch {}
}
