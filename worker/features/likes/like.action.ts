// Like and unlike: the one function every door calls (/v1 and the pages, a Mastodon app's
// favourite, a remote server's Like and Undo(Like)). It writes the like with its notification and
// counter (likeWrite: one batch), then tells the post's server only when the post is from there;
// a like here is only streamed to whoever is connected.
import { known, pairOf, type Read, readOne } from "../../db/reads";
import type { ContentKind } from "../content/content";
import { type ActionContext, deliverIf } from "../federation/federate";
import { likeWrite } from "./likes.service";

/**
 * `andRead`: a read a door answers with (a Mastodon status), sent in the like's own batch, after it:
 * it sees the like, and the like's refusal comes first.
 */
export async function likeAction<R = undefined>(
  ctx: ActionContext,
  who: number,
  target: { kind: ContentKind; id: number },
  on: boolean,
  andRead: Read<R> = known(undefined as R),
) {
  const { kind, id } = target;
  const [done, after] = await readOne(ctx.db, pairOf(likeWrite(ctx.db, who, kind, id, on), andRead));
  // A folder is liked here only: no other server has it.
  if (kind === "note" || kind === "reply")
    await deliverIf(ctx, done.remote, { notex: "like", op: on ? "create" : "delete", uid: who, kind, id });
  return { liked: done.liked, likenum: done.likenum, read: after };
}
