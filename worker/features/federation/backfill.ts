// A person elsewhere found here for the first time (lookup.ts) has a profile with their recent posts
// on it, as Mastodon shows them: the consumer reads the first page of their outbox (the newest
// activities first) and stores up to MAX_BACKFILL public posts the way an inbound Create stores a
// note (receive.ts keepOlderNote: sanitised, once per object URI, nobody notified). Nothing of this
// runs in the request that found them.
import type { Context } from "@fedify/fedify";
import { Create, isActor, Note, PUBLIC_COLLECTION } from "@fedify/vocab";
import type { FedData, OutMessage } from "./context";
import { keepOlderNote } from "./receive";

/** Posts stored at most (Mastodon's first outbox page holds 20). */
export const MAX_BACKFILL = 20;
/** Outbox items read at most (replies, boosts and non-public posts are passed over). */
const MAX_READ = 40;

const isPublic = (ids: URL[]) => ids.some((u) => u.href === PUBLIC_COLLECTION.href);

export async function backfill(ctx: Context<FedData>, m: Extract<OutMessage, { notex: "backfill" }>) {
  const env = ctx.data.env;
  const row = await env.DB.prepare("select uri from remote_actors where user_id = ?")
    .bind(m.uid)
    .first<{ uri: string }>();
  if (!row) return;
  // A server that refuses or fails to show its outbox (secure mode, an error) leaves nothing to
  // read: the profile fills as posts arrive, and the message is not retried.
  const loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader, suppressError: true };
  const actor = await ctx.lookupObject(row.uri);
  const outbox = isActor(actor) ? await actor.getOutbox(loaders) : null;
  if (!outbox) return;
  const posts: Note[] = [];
  let read = 0;
  for await (const item of ctx.traverseCollection(outbox, { suppressError: true })) {
    if (++read > MAX_READ || posts.length === MAX_BACKFILL) break;
    if (!(item instanceof Create) || item.actorId?.href !== row.uri) continue;
    const note = await item.getObject(loaders);
    // Their own public posts only (a Create naming someone else's object is not theirs to give).
    if (!(note instanceof Note) || note.attributionId?.href !== row.uri || note.replyTargetId) continue;
    if (note.id?.origin !== new URL(row.uri).origin || !isPublic(note.toIds)) continue;
    posts.push(note);
  }
  // Oldest first, so the newest keeps the highest id as it would have arriving live.
  for (const note of posts.reverse()) await keepOlderNote(ctx, m.uid, note);
}
