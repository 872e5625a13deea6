// A counted interaction with a table of its own (a like) and its undoing: the one function every
// door calls (/v1 and the pages, a Mastodon app's favourite, a remote server's activity and its
// Undo). It writes the row with its notification and counter (rowWrite: one batch), then tells
// the post's server only when the post is from there; one here is only streamed to whoever is
// connected.
import { known, pairOf, type Read, readOne } from "../../db/reads";
import type { ContentKind } from "../content/content";
import { type ActionContext, deliverIf } from "../federation/federate";
import type { RowEntry } from "./kinds";
import { rowWrite } from "./rows.service";

/**
 * `andRead`: a read a door answers with (a Mastodon status), sent in the write's own batch, after
 * it: it sees the write, and the write's refusal comes first.
 */
export async function rowAction<R = undefined>(
  ctx: ActionContext,
  k: RowEntry,
  who: number,
  target: { kind: ContentKind; id: number },
  on: boolean,
  andRead: Read<R> = known(undefined as R),
) {
  const { kind, id } = target;
  const [done, after] = await readOne(ctx.db, pairOf(rowWrite(ctx.db, k, who, kind, id, on), andRead));
  // A folder is only here: no other server has it; nor has any a kind that is not federated.
  if (kind === "note" || kind === "reply")
    await deliverIf(ctx, done.remote && k.kind.activity !== null, {
      notex: k.kind.name,
      op: on ? "create" : "delete",
      uid: who,
      kind,
      id,
    });
  return { on: done.on, count: done.count, read: after };
}
