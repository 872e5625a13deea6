// Block and mute: the one function each door calls (/v1 and the pages, a Mastodon app, a remote
// server's Block and Undo(Block), a report that asks to block the author). A block cuts the follows
// both ways and the notices between the two (safety.service.ts: one batch); a block of someone
// elsewhere is told to their server (Block, Undo(Block)), as Mastodon does. A mute stays here:
// Mastodon does not federate mutes either.
import { type ActionContext, deliver } from "../federation/federate";
import { block, mute } from "./safety.service";

export async function blockAction(ctx: ActionContext, who: number, target: number, on: boolean) {
  const { blocking, remote } = await block(ctx.db, who, target, on);
  if (remote) await deliver(ctx, { notex: "block", op: on ? "create" : "delete", uid: who, target });
  return { blocking };
}

export const muteAction = (ctx: ActionContext, who: number, target: number, on: boolean) =>
  mute(ctx.db, who, target, on);
