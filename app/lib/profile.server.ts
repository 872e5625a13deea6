import type { UserJson } from "../../worker/features/users/users.service";
import type { Api } from "./api.server";

/**
 * Each profile tab's data comes from its feature's loader function; the route stays thin.
 * notes feature: replace loadNotesTab; folders feature: replace loadFoldersTab.
 */
export async function loadNotesTab(_api: Api, _user: UserJson, _url: URL): Promise<unknown> {
  return null;
}

export async function loadFoldersTab(_api: Api, _user: UserJson, _url: URL): Promise<unknown> {
  return null;
}
