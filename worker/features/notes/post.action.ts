// Posting a note: the one function every door calls (/v1 and the pages, a Mastodon app's status, a
// remote server's Create(Note)). One batch writes the note with its media, x-label, tags, folders,
// counters and notifications (its followers here, the people it names) and reads whether anyone
// elsewhere is concerned; then the note is delivered only when someone elsewhere follows its
// author or is named in it, and otherwise only streamed to whoever is connected here.
import type { SQL } from "drizzle-orm";
import { known, type Read } from "../../db/reads";
import { type ActionContext, deliverIf } from "../federation/federate";
import type { NoteData } from "./notes.schema";
import { followedElsewhere, namesElsewhere, writeThen } from "./posting";
import { prepareNote } from "./write.service";

/**
 * `after(made)`: what the door reads in the same batch, naming the new note by SQL (a Mastodon
 * status). `named`: the people a post from elsewhere mentions (its Mention tags).
 */
export async function postAction<R = undefined>(
  ctx: ActionContext,
  uid: number,
  data: NoteData,
  after: (made: SQL<number>) => Read<R> = () => known(undefined as R),
  named?: number[],
) {
  const write = await prepareNote(ctx.env, ctx.db, uid, data, ctx.origin, named);
  const { done, remote, read } = await writeThen(ctx.db, uid, write, followedElsewhere(uid), after(write.id));
  const elsewhere = remote || namesElsewhere(data.content);
  await deliverIf(ctx, elsewhere, { notex: "note", op: "create", uid, id: done.note.id });
  return { saved: done, read };
}
