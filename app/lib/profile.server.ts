import type { UserJson } from "../../worker/features/users/users.service";
import type { NotesTabData } from "~/components/notes/ProfileNotesTab";
import type { PageApi } from "./api.server";
import { listParams, loadList } from "./notes.server";
import type { FoldersTabData } from "~/components/folders/ProfileFoldersTab";

/**
 * Each profile tab's data comes from its feature's loader function; the route stays thin.
 * notes feature: replace loadNotesTab; folders feature: replace loadFoldersTab.
 */
export async function loadNotesTab(api: PageApi, user: UserJson, url: URL): Promise<NotesTabData> {
  const label = url.searchParams.get("l") ?? "";
  return { label, list: await loadList(api, "/notes", url, { uid: String(user.id), xlabel: label || undefined }) };
}

export async function loadFoldersTab(api: PageApi, user: UserJson, url: URL): Promise<FoldersTabData> {
  const type = url.searchParams.get("type") ?? "";
  const sort = url.searchParams.get("sort") === "time" ? "time" : "type";
  const res = await api.get<Omit<FoldersTabData, "type" | "sort">>(
    `/folders?${listParams(url, { uid: String(user.id), type: type || undefined, sort })}`,
  );
  return { ...(res.ok ? res.data : { folders: [], paginator: { page: 1, is_end: true }, cursor: null }), type, sort };
}
