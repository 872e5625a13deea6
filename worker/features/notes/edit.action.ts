// Editing a note or a reply: the one function per kind that every door calls (/v1 and the pages, a
// Mastodon app's PUT of a status, a remote server's Update(Note)). One batch writes the new text
// with its history, tags, x-label counters and the notices of people newly named, and reads whether
// anyone elsewhere is concerned (a follower of the author there, the post answered being from
// there); only then is the Update delivered, otherwise it is only streamed to whoever is connected.
import { sql } from "drizzle-orm";
import { known, type Read } from "../../db/reads";
import { type ActionContext, deliverIf } from "../federation/federate";
import { prepareEditReply } from "../replies/replies.service";
import { deleteImages } from "../uploads/uploads.links";
import type { NoteData } from "./notes.schema";
import { followedElsewhere, namesElsewhere, writeThen } from "./posting";
import { type Kept, prepareUpdateNote } from "./write.service";

/**
 * The caller's note `id` takes `data` (`kept`: what the door leaves as it is). `andRead`: what the
 * door answers with (a Mastodon status), read after the write in its batch. `named`: the people a
 * post from elsewhere mentions (its Mention tags).
 */
export async function editNoteAction<R = undefined>(
  ctx: ActionContext,
  uid: number,
  id: number,
  data: NoteData,
  kept: Kept = {},
  andRead: Read<R> = known(undefined as R),
  named?: number[],
) {
  const write = await prepareUpdateNote(ctx.env, ctx.db, uid, id, data, ctx.origin, kept, named);
  const { done, remote: elsewhere, read } = await writeThen(ctx.db, uid, write, followedElsewhere(uid), andRead);
  // The files of the images the edit took off go once nothing names them.
  await deleteImages(ctx.env, ctx.db, uid, done.removed);
  await deliverIf(ctx, elsewhere || namesElsewhere(data.content), { notex: "note", op: "update", uid, id });
  return { saved: done.saved, read };
}

/** The caller's reply `id` takes the text `raw`; `andRead` and `named` as editNoteAction's. */
export async function editReplyAction<R = undefined>(
  ctx: ActionContext,
  uid: number,
  id: number,
  raw: string,
  andRead: Read<R> = known(undefined as R),
  named?: number[],
) {
  const write = await prepareEditReply(ctx.db, uid, id, raw, named);
  // The post it answers came from elsewhere: its author there is told of the edit too.
  const answered = sql<number>`exists(select 1 from replies r join remote_objects ro
    on (ro.kind = 'note' and ro.row_id = r.note_id and r.parent_reply_id is null) or (ro.kind = 'reply' and ro.row_id = r.parent_reply_id)
    where r.id = ${id})`;
  const remote = sql<number>`(${followedElsewhere(uid)} or ${answered})`;
  const { remote: elsewhere, read } = await writeThen(ctx.db, uid, write, remote, andRead);
  await deliverIf(ctx, elsewhere || namesElsewhere(raw), { notex: "reply", op: "update", uid, id });
  return { read };
}
