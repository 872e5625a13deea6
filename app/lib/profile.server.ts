import type { UserJson } from "../../worker/features/users/users.service";
import type { NotesTabData } from "~/components/notes/ProfileNotesTab";
import type { Api } from "./api.server";
import { loadList } from "./notes.server";

/**
 * Each profile tab's data comes from its feature's loader function; the route stays thin.
 * notes feature: replace loadNotesTab; folders feature: replace loadFoldersTab.
 */
export async function loadNotesTab(api: Api, user: UserJson, url: URL): Promise<NotesTabData> {
  const label = url.searchParams.get("l") ?? "";
  return { label, list: await loadList(api, "/notes", url, { uid: String(user.id), xlabel: label || undefined }) };
}

export async function loadFoldersTab(_api: Api, _user: UserJson, _url: URL): Promise<unknown> {
  return null;
}
