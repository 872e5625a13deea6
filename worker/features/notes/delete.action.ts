// Deleting a note or a reply: the one function every door calls (/v1 and the pages, a Mastodon
// app's DELETE /api/v1/statuses/:id, a remote server's Delete of a post stored here). One batch
// reads who else must hear of it (federation/reach.ts: the people it mentions, and those who
// replied to, quoted, renoted or liked it, whose rows go with it), then deletes it with every
// counter it moved; its pictures' files go after. Its Delete (a Tombstone) then reaches its
// author's followers' servers and theirs, as Mastodon's RemoveStatusService sends it.
import { known, mapRead, pairOf, type Read, readOne } from "../../db/reads";
import { type ActionContext, deliver } from "../federation/federate";
import { type Reach, reachRead } from "../federation/reach";
import { prepareDeleteReply } from "../replies/replies.service";
import type { ReplyParent } from "../replies/parent";
import { deleteImages } from "../uploads/uploads.links";
import { prepareDeleteNote } from "./write.service";

export interface PostRef {
  kind: "note" | "reply";
  id: number;
}

/**
 * `who` deletes their own `post` (a 404 when it is not theirs). `before`: a read a door needs in the
 * same batch, ahead of the writes (the status a Mastodon app is answered with, as it was).
 */
export async function deletePost<R = undefined>(
  ctx: ActionContext,
  who: number,
  post: PostRef,
  before: Read<R> = known(undefined as R),
): Promise<{ before: R; parent?: ReplyParent }> {
  const { db } = ctx;
  const write: Read<{ keys: string[]; parent?: ReplyParent }> =
    post.kind === "note"
      ? mapRead(prepareDeleteNote(db, who, post.id), (keys) => ({ keys }))
      : mapRead(prepareDeleteReply(db, who, post.id), ({ parent }) => ({ keys: [], parent }));
  // What came from another server was already told to whom it concerned by that server.
  const reach: Read<Reach> = ctx.inbound ? known({}) : reachRead(db, who, post);
  const [[read, reached], done] = await readOne(db, pairOf(pairOf(before, reach), write));
  await deleteImages(ctx.env, db, who, done.keys);
  const gone = { op: "delete" as const, uid: who, id: post.id, ...reached };
  await deliver(
    ctx,
    post.kind === "note" ? { notex: "note", ...gone } : { notex: "reply", ...gone, parent: done.parent },
  );
  return { before: read, parent: done.parent };
}
