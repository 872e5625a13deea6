import type { UserJson } from "../../worker/features/users/users.service";
import type { NotesTabData } from "~/components/notes/ProfileNotesTab";
import { load, type PageApi, result } from "./api.server";
import { listQuery } from "./notes.server";
import type { FoldersTabData } from "~/components/folders/ProfileFoldersTab";

/** Each profile tab's data comes from its feature's list; the route stays thin. */
export async function loadNotesTab(api: PageApi, user: UserJson, url: URL): Promise<NotesTabData> {
  const label = url.searchParams.get("l") ?? "";
  const query = listQuery(url, { uid: String(user.id), xlabel: label || undefined });
  return { label, list: await load(api.v1.notes.$get({ query })) };
}

export async function loadFoldersTab(api: PageApi, user: UserJson, url: URL): Promise<FoldersTabData> {
  const type = url.searchParams.get("type") ?? "";
  const sort = url.searchParams.get("sort") === "time" ? "time" : "type";
  const res = await result(
    api.v1.folders.$get({ query: listQuery(url, { uid: String(user.id), type: type || undefined, sort }) }),
  );
  return { ...(res.ok ? res.data : { folders: [], paginator: { page: 1, is_end: true }, cursor: null }), type, sort };
}
