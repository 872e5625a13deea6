// "Authorized fetch" (AUTHORIZED_FETCH=true, as Mastodon's secure mode): NoteX's own ActivityPub
// documents answer only a GET signed by a key of a server that is not blocked here, so a blocked
// server cannot read its posts and followers by asking without a signature. Fedify verifies the
// signature (fetching the signer's key, signed by our instance actor) and answers 401 otherwise.
// WebFinger, NodeInfo and the instance actor stay open: other servers need them to verify our own
// signed requests.
import type { RequestContext } from "@fedify/fedify";
import type { FedData } from "./context";
import { isBlockedHost } from "./domains";

export async function mayFetch(ctx: RequestContext<FedData>): Promise<boolean> {
  const { env } = ctx.data;
  if (env.AUTHORIZED_FETCH !== "true") return true;
  const key = await ctx.getSignedKey();
  const host = key?.id?.host;
  return !!host && !(await isBlockedHost(env.DB, host));
}
