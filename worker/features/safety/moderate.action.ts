// A moderator's act (dismiss, hide, restore, suspend, unsuspend): the one function its door calls.
// The act itself is one batch (moderation.service.ts); what other servers hear of it follows
// Mastodon's rules, and only for a person here (one elsewhere is their own server's to moderate):
// - hidden content is gone for them as a delete is: its Delete (a Tombstone) reaches the servers
//   it reached (federation/reach.ts). A restore sends nothing: a server that took the Delete keeps
//   a tombstone and refuses the same id again (Mastodon's Create does), so the post stays here only;
// - a suspended person's actor answers 410, as a deleted account's: the servers that know them
//   hear Delete(Person), as Mastodon's suspension did before it kept suspended actors readable
//   (today's Mastodon sends Update with `suspended: true`, which an actor answering 410 would
//   contradict); nothing of theirs goes out meanwhile (outbox.ts). Lifting it sends
//   Update(Person), as Mastodon's UnsuspendAccountService does, so those servers find them again.
import type { SessionStore } from "../../lib/sessions";
import { type ActionContext, stream, tellServers } from "../federation/federate";
import { type ActionInput, act, type Role, type Target } from "./moderation.service";

export async function moderate(
  ctx: ActionContext,
  sessions: SessionStore,
  moderator: { id: number; role: Role },
  input: ActionInput,
) {
  const { done, target } = await act(ctx.db, sessions, moderator, input);
  if (target?.local) await tellOthers(ctx, input, target);
  // Hidden, a post leaves the streams it reached here, wherever its author lives: connected apps
  // and pages drop it as they drop a deleted one (Mastodon streams a delete when it takes one down).
  const { kind, id, action } = input;
  if (target && action === "hide" && (kind === "note" || kind === "reply"))
    await stream(ctx, { notex: kind, op: "delete", uid: target.ownerId, id, parent: target.parent });
  return done;
}

async function tellOthers(ctx: ActionContext, { kind, id, action }: ActionInput, t: Target) {
  const uid = t.ownerId;
  if (action === "suspend") await tellServers(ctx, { notex: "account", op: "suspend", uid });
  else if (action === "unsuspend") await tellServers(ctx, { notex: "account", op: "update", uid });
  else if (action === "hide" && (kind === "note" || kind === "reply")) {
    // Hidden, its rows stay: the consumer reads who it reached (federation/reach.ts), off this request.
    await tellServers(
      ctx,
      kind === "note"
        ? { notex: "note", op: "delete", uid, id, readHere: true }
        : { notex: "reply", op: "delete", uid, id, parent: t.parent, readHere: true },
    );
  }
}
