import type { Api } from "./api.server";

/** The replies section's data (social feature). */
export async function loadReplies(_api: Api, _noteId: number, _url: URL): Promise<unknown> {
  return null;
}
