// A person's block of a whole server, as every door makes it (/v1 and the Settings page, the
// Mastodon API, the CSV import): the block and its cuts in one batch (domain-blocks.service.ts),
// then, as Mastodon's AfterBlockDomainFromAccountService does, a Reject(Follow) to the server of
// each follower it removed so that their side drops the follow too. The Rejects go by the queue
// (outbox-reject.ts), a bounded list of followers per message, never in the request.
import { type ActionContext, tellServers } from "../federation/federate";
import { blockServer } from "./domain-blocks.service";

/** Followers per queue message: each becomes one delivery, well inside a consumer's subrequests. */
const REJECT_CHUNK = 100;

export async function blockServerAction(ctx: ActionContext, me: number, host: string): Promise<{ id: number }> {
  const { id, followers } = await blockServer(ctx.db, me, host);
  for (let i = 0; i < followers.length; i += REJECT_CHUNK)
    await tellServers(ctx, { notex: "reject", op: "create", uid: me, followers: followers.slice(i, i + REJECT_CHUNK) });
  return { id };
}
