// A Delete of an actor whose document already answers 410 Gone (or 404) cannot be verified: its key
// went with it. Both the inbox guard (inbox-guard.ts) and the inbox (inbox.ts, Fedify's
// onUnverifiedActivity) let exactly one such delivery through: the actor announcing its own end.
import type { VerifyRequestFailureReason } from "@fedify/fedify";
import { type Activity, Delete } from "@fedify/vocab";

/**
 * The actor whose key could not be fetched because its document answers 410 Gone or 404: the
 * key id is on the actor's document (`{actor}#main-key`, Mastodon's and NoteX's) or under it
 * (`{actor}/main-key`, GoToSocial's). Null for any other failure.
 */
export function goneKeyOwner(reason: VerifyRequestFailureReason): string | null {
  if (reason.type !== "keyFetchError" || !("status" in reason.result)) return null;
  if (reason.result.status !== 410 && reason.result.status !== 404) return null;
  const owner = new URL(reason.keyId.href);
  owner.hash = "";
  if (owner.pathname.endsWith("/main-key")) owner.pathname = owner.pathname.slice(0, -"/main-key".length);
  return owner.href;
}

/** A Delete whose actor and object are both `actor`: an account announcing its own end. */
export const isSelfDelete = (activity: Activity | null, actor: string) =>
  activity instanceof Delete && activity.actorId?.href === actor && activity.objectId?.href === actor;
