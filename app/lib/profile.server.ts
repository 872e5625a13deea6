import type { NotesTabData } from "~/components/notes/ProfileNotesTab";
import { load, type PageApi, result } from "./api.server";
import { listQuery } from "./notes.server";
import type { FoldersTabData } from "~/components/folders/ProfileFoldersTab";

/**
 * Each profile tab's data comes from its feature's list; the route stays thin. The list is asked
 * for by the name in the page's address, so it goes to D1 beside the person's own record.
 */
export async function loadNotesTab(api: PageApi, username: string, url: URL): Promise<NotesTabData> {
  const label = url.searchParams.get("l") ?? "";
  const query = listQuery(url, { username, xlabel: label || undefined });
  return { label, list: await load(api.v1.notes.$get({ query })) };
}

export async function loadFoldersTab(api: PageApi, username: string, url: URL): Promise<FoldersTabData> {
  const type = url.searchParams.get("type") ?? "";
  const sort = url.searchParams.get("sort") === "time" ? "time" : "type";
  // As a CV: the same list in the CV's order, grouped on the page.
  const view = url.searchParams.get("view") === "cv" ? "cv" : "list";
  const query = listQuery(url, { username, type: type || undefined, sort: view === "cv" ? "cv" : sort });
  const res = await result(api.v1.folders.$get({ query }));
  const empty = { folders: [], paginator: { page: 1, is_end: true }, cursor: null };
  return { ...(res.ok ? res.data : empty), type, sort, view };
}
