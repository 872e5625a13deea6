// The modules of the dialogs a URL can open (?dialog=name), loaded only when one opens so a page's
// first load stays small. Layout also awaits the one in the URL before it marks the page ready.
export const DIALOG_MODULES = {
  login: () => import("./AuthForms"),
  signup: () => import("./AuthForms"),
  note: () => import("./notes/Composer"),
  folder: () => import("./folders/FolderDialog"),
  quote: () => import("./notes/NoteDialogs"),
  "delete-note": () => import("./notes/NoteDialogs"),
  report: () => import("./social/SocialDialogs"),
} as const;

/** Resolves once the module of the dialog named in `search` (if any) is loaded. */
export function dialogLoaded(search: string): Promise<unknown> {
  const name = new URLSearchParams(search).get("dialog") ?? "";
  const load = (DIALOG_MODULES as Record<string, () => Promise<unknown>>)[name];
  return load ? load().catch(() => undefined) : Promise.resolve();
}
