import type { RepliesData } from "~/components/social/Replies";
import { type PageApi, result } from "./api.server";
import { listQuery } from "./notes.server";

/** The replies section's data: direct replies to the note, oldest first. */
export async function loadReplies(api: PageApi, noteId: number, url: URL): Promise<RepliesData | null> {
  const res = await result(api.v1.replies.$get({ query: listQuery(url, { pid: String(-noteId) }) }));
  return res.ok ? res.data : null;
}
