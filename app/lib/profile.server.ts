import type { NotesTabData } from "~/components/notes/ProfileNotesTab";
import type { FoldersTabData } from "~/components/folders/ProfileFoldersTab";
import { mapRead } from "../../worker/db/reads";
import { foldersRead } from "../../worker/features/folders/folders.service";
import { ownerNotesRead } from "../../worker/features/notes/read.service";
import { listParams, type PageRead } from "./page.server";

/**
 * Each profile tab's data is its feature's list, asked for by the name in the page's address, so
 * it goes to D1 in the same batch as the person's own record; the route stays thin.
 */
export function notesTabRead(username: string, url: URL): PageRead<NotesTabData> {
  const label = url.searchParams.get("l") ?? "";
  return (db, me) =>
    mapRead(ownerNotesRead(db, { username }, label || undefined, listParams(url), me), (list) => ({ label, list }));
}

const tabFilters = (url: URL) => ({
  type: url.searchParams.get("type") ?? "",
  sort: url.searchParams.get("sort") === "time" ? ("time" as const) : ("type" as const),
  // As a CV: the same list in the CV's order, grouped on the page.
  view: url.searchParams.get("view") === "cv" ? ("cv" as const) : ("list" as const),
});

/** The folders tab when its list cannot be read (a bad cursor): no folders, the filters as asked. */
export const noFolders = (url: URL): FoldersTabData => ({
  folders: [],
  paginator: { page: 1, is_end: true },
  cursor: null,
  ...tabFilters(url),
});

export function foldersTabRead(username: string, url: URL): PageRead<FoldersTabData> {
  const { type, sort, view } = tabFilters(url);
  const order = view === "cv" ? "cv" : sort;
  return (db, me) =>
    mapRead(foldersRead(db, { username, type: type || undefined, sort: order, ...listParams(url) }, me), (list) => ({
      ...list,
      type,
      sort,
      view,
    }));
}
