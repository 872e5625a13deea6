// Renoting, taking a renote back, and quoting: the one function per act that every door calls
// (/v1 and the pages, a Mastodon app's reblog, unreblog and quoted_status_id, a remote server's
// Announce and Undo(Announce)). One batch writes the renote (or quote) with the original's counter
// and its owner's notice, and reads whether anyone elsewhere is concerned: the author's followers
// there, or the original's own server. Only then is it delivered (an Announce, its Undo, or a quote's
// Create: a quote is a note of its own); otherwise it is only streamed to whoever is connected here.
import { type SQL, sql } from "drizzle-orm";
import { known, type Read } from "../../db/reads";
import { type ActionContext, deliverIf } from "../federation/federate";
import { followedElsewhere, fromElsewhere, namesElsewhere, writeThen } from "./posting";
import { prepareRenote, prepareUndoRenote } from "./renotes.service";

/**
 * A plain renote of `targetId` (a renote of a renote shares the original), or, with `on` false,
 * taking back one's renote of `targetId`. `andRead(original)`: a read a door answers with (a
 * Mastodon status), sent after the write in its batch, naming the original as the batch finds it.
 */
export async function renoteAction<R = undefined>(
  ctx: ActionContext,
  uid: number,
  targetId: number,
  on: boolean,
  andRead: (original: SQL<number> | number) => Read<R> = () => known(undefined as R),
) {
  const write = on
    ? await prepareRenote(ctx.db, uid, targetId, "", "")
    : { ...prepareUndoRenote(ctx.db, uid, targetId), id: targetId };
  const remote = sql<number>`(${followedElsewhere(uid)} or ${fromElsewhere("note", write.id)})`;
  const { done, remote: elsewhere, read } = await writeThen(ctx.db, uid, write, remote, andRead(write.id));
  await deliverIf(ctx, elsewhere, { notex: "renote", op: on ? "create" : "delete", uid, target: done.id });
  return { done, read };
}

/** A quote of `targetId`: a note of its own (sanitised `html` and its text). */
export async function quoteAction<R = undefined>(
  ctx: ActionContext,
  uid: number,
  targetId: number,
  html: string,
  txt: string,
  after: (made: SQL<number>) => Read<R> = () => known(undefined as R),
) {
  const write = await prepareRenote(ctx.db, uid, targetId, html, txt);
  const original = sql<number>`(select renote_id from notes where id = ${write.id})`;
  const remote = sql<number>`(${followedElsewhere(uid)} or ${fromElsewhere("note", original)})`;
  const { done, read, ...told } = await writeThen(ctx.db, uid, write, remote, after(write.id));
  await deliverIf(ctx, told.remote || namesElsewhere(html), { notex: "note", op: "create", uid, id: done.id });
  return { done, read };
}
