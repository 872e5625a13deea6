import type { RepliesData } from "~/components/social/Replies";
import { type PageApi, result } from "./api.server";
import { listQuery } from "./notes.server";

/**
 * The replies section's data: the note's conversation as a tree (direct replies oldest first, and
 * the levels under them), with the reply just written (`?reply=`) in it.
 */
export async function loadReplies(api: PageApi, noteId: number, url: URL): Promise<RepliesData | null> {
  const focus = url.searchParams.get("reply");
  const extra = { pid: String(-noteId), ...(focus ? { focus } : {}) };
  const res = await result(api.v1.replies.thread.$get({ query: listQuery(url, extra) }));
  return res.ok ? res.data : null;
}
