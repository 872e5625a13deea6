import type { RepliesData } from "~/components/social/Replies";
import type { PageApi } from "./api.server";
import { listParams } from "./notes.server";

/** The replies section's data: direct replies to the note, oldest first. */
export async function loadReplies(api: PageApi, noteId: number, url: URL): Promise<RepliesData | null> {
  const res = await api.get<RepliesData>(`/replies?${listParams(url, { pid: String(-noteId) })}`);
  return res.ok ? res.data : null;
}
