// A Move from someone people here follow (Mastodon's ActivityPub::Activity::Move): believed only
// when the actor moves itself and the target, read fresh from its server, lists the actor among
// its aliases; then the actor is marked as moved and the follows here move over (the queue, a
// chunk per message, move-out.ts). A Move seen again changes nothing.
import type { InboxContext } from "@fedify/fedify";
import type { Move } from "@fedify/vocab";
import type { FedData } from "../federation/context";
import { storeActor, storedActorId } from "../federation/remote";
import { verifiedTarget } from "./verify";

export async function onMove(ctx: InboxContext<FedData>, move: Move) {
  const env = ctx.data.env;
  const from = move.actorId;
  const target = move.targetId;
  if (!from || !target || move.objectId?.href !== from.href) return;
  // Unknown here and moving to someone here: stored, so the new profile can say where they came from.
  const uid =
    (await storedActorId(env, from)) ??
    (ctx.parseUri(target)?.type === "actor"
      ? await move.getActor(ctx).then((a) => (a ? storeActor(env, a) : null))
      : null);
  if (uid === null) return;
  const to = await verifiedTarget(ctx, target, from);
  if (to === null) return;
  const moved = await env.DB.prepare(
    `insert into account_moves (user_id, target_id) values (?1, ?2)
     on conflict(user_id) do update set target_id = excluded.target_id, created_at = excluded.created_at
     where account_moves.target_id <> excluded.target_id returning user_id`,
  )
    .bind(uid, to)
    .first();
  if (!moved) return;
  await env.FED_QUEUE?.send(
    { notex: "move", op: "followers", from: uid, to, after: 0, origin: ctx.canonicalOrigin },
    { contentType: "json" },
  );
}
