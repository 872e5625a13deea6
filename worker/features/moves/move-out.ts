// The queue's side of a move (context.ts "move" messages): a local account that moved tells every
// follower's server with a Move (Mastodon's MoveService: actor and object the old account, target
// the new), and the people here who followed it follow the new account, a chunk per message.
import type { Context } from "@fedify/fedify";
import { Move } from "@fedify/vocab";
import { dbFor } from "../../db/client";
import type { FedData, OutMessage } from "../federation/context";
import { followerInboxes } from "../federation/data";
import { moveFollowers } from "./followers";
import { actorUri } from "./state";

type MoveMessage = Extract<OutMessage, { notex: "move" }>;

export async function moveOutbound(ctx: Context<FedData>, m: MoveMessage) {
  const env = ctx.data.env;
  if (m.op === "create") {
    const target = await env.DB.prepare(
      `select ra.uri from account_moves m left join remote_actors ra on ra.user_id = m.target_id
       where m.user_id = ? and m.target_id = ?`,
    )
      .bind(m.uid, m.target)
      .first<{ uri: string | null }>();
    if (!target) return;
    const actor = ctx.getActorUri(String(m.uid));
    const inboxes = await followerInboxes(env.DB, m.uid);
    if (inboxes.length)
      await ctx.sendActivity(
        { identifier: String(m.uid) },
        inboxes.map((r) => ({
          id: new URL(r.uri),
          inboxId: new URL(r.inbox),
          endpoints: r.shared ? { sharedInbox: new URL(r.inbox) } : null,
        })),
        new Move({
          id: new URL(`${actor.href}#moves/${m.target}`),
          actor,
          object: actor,
          target: new URL(target.uri ?? actorUri(m.origin, m.target)),
          to: ctx.getFollowersUri(String(m.uid)),
        }),
        { preferSharedInbox: true },
      );
    await env.FED_QUEUE?.send(
      { notex: "move", op: "followers", from: m.uid, to: m.target, after: 0, origin: m.origin },
      { contentType: "json" },
    );
    return;
  }
  const next = await moveFollowers(env, dbFor(env.DB), m.origin, m);
  if (next !== null) await env.FED_QUEUE?.send({ ...m, after: next }, { contentType: "json" });
}
