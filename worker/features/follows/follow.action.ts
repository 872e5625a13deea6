// Follow and unfollow: the one function every door calls (/v1 and the pages, a Mastodon app, a
// remote server's Follow, Undo(Follow) and Reject). It writes the follow with its counters and
// notification (follow(): one batch); a follow of someone elsewhere is told to their server, one
// of someone here is only streamed to whoever is connected.
import { type ActionContext, deliver, deliverIf } from "../federation/federate";
import { follow } from "./follows.service";

/** `approved`: a locked account's Accept of the follow request `who` made (follows.service.ts). */
export async function followAction(ctx: ActionContext, who: number, target: number, on: boolean, approved = false) {
  const { answer, remote } = await follow(ctx.db, who, target, on, approved);
  const event = { notex: "follow", op: on ? "create" : "delete", uid: who, target } as const;
  // An unfollow here has nobody to tell (nothing is streamed for it).
  if (on) await deliverIf(ctx, remote, event);
  else if (remote) await deliver(ctx, event);
  return answer;
}
