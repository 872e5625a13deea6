// Followers elsewhere that a person removed (a block of their server: safety/domain-block.action.ts),
// each told with a Reject(Follow) to their own inbox, as Mastodon's RejectFollowService and
// AfterBlockDomainFromAccountService send it: the Follow embedded with the id it came with (kept
// by the inbox, sent.ts), its actor the follower and its object the person. A follow from before
// ids were kept goes without one; Mastodon, and NoteX's inbox, match it by its actor and object.
import type { Context } from "@fedify/fedify";
import { Follow, Reject } from "@fedify/vocab";
import type { Env } from "../../env";
import type { FedData, OutMessage } from "./context";
import type { FollowerRow } from "./data";
import { recipientOf } from "./objects";
import { takeAllSent } from "./sent";

export async function rejectOut(ctx: Context<FedData>, env: Env, m: Extract<OutMessage, { notex: "reject" }>) {
  const identifier = String(m.uid);
  const actor = ctx.getActorUri(identifier);
  const { results } = await env.DB.prepare(
    "select user_id, uri, inbox, shared_inbox from remote_actors where user_id in (select value from json_each(?1))",
  )
    .bind(JSON.stringify(m.followers))
    .all<FollowerRow>();
  const kept = await takeAllSent(
    env,
    "follower",
    m.uid,
    results.map((f) => String(f.user_id)),
  );
  for (const f of results) {
    const follow = new Follow({ id: kept.get(String(f.user_id)) ?? null, actor: new URL(f.uri), object: actor });
    const id = new URL(`${actor.href}#rejects/follows/${f.user_id}/${Date.now()}`);
    await ctx.sendActivity({ identifier }, recipientOf(f), new Reject({ id, actor, object: follow }));
  }
}
