// Replying: the one function every door calls (/v1 and the pages, a Mastodon app's status with
// in_reply_to_id, a remote server's Create(Note) answering something here). One batch writes the
// reply, its parent's counter and the notices (the author answered once, the others named), and
// reads whether anyone elsewhere is concerned; the reply is delivered only when its author has a
// follower elsewhere, it answers a post from elsewhere or names someone there, and otherwise only
// streamed to whoever is connected here.
import { type SQL, sql } from "drizzle-orm";
import { type ActionContext, deliverIf } from "../federation/federate";
import { known, type Read } from "../../db/reads";
import { followedElsewhere, fromElsewhere, namesElsewhere, writeThen } from "../notes/posting";
import { prepareReply } from "./replies.service";
import type { ReplyParent } from "./parent";

/**
 * `parent`: the note or reply answered. `after(made)`: what the door reads in
 * the same batch (a Mastodon status). `named`: the people a reply from elsewhere mentions (its
 * Mention tags).
 */
export async function replyAction<R = undefined>(
  ctx: ActionContext,
  uid: number,
  parent: ReplyParent,
  raw: string,
  after: (made: SQL<number>) => Read<R> = () => known(undefined as R),
  named?: number[],
) {
  const write = await prepareReply(ctx.db, uid, parent, raw, named);
  const answered = fromElsewhere(parent.kind, parent.id);
  const remote = sql<number>`(${followedElsewhere(uid)} or ${answered})`;
  const { done, read, ...told } = await writeThen(ctx.db, uid, write, remote, after(write.id));
  await deliverIf(ctx, told.remote || namesElsewhere(raw), { notex: "reply", op: "create", uid, id: done.id });
  return { reply: done, read };
}
