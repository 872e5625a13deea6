// What other servers may tell us. Fedify verifies every delivery's signature (draft-cavage and RFC
// 9421) and that the signing key belongs to the activity's actor (401 otherwise, nothing runs);
// here each listener also checks that the object's id has its sender's origin (Mastodon's
// CVE-2024-23832) before it changes anything. Every write goes through the same services as a
// local person's (counters, notifications, blocks), and each is idempotent: the same activity twice
// changes nothing the second time (Fedify also drops a repeated activity id).
import type { FederationBuilder, InboxContext, RequestContext, UnverifiedActivityReason } from "@fedify/fedify";
import {
  Accept,
  Activity,
  Announce,
  Block,
  Create,
  Delete,
  Flag,
  Follow,
  Move,
  Note,
  Reject,
  Undo,
  Update,
  type Actor,
  isActor,
} from "@fedify/vocab";
import { dbFor } from "../../db/client";
import { AppError } from "../../lib/errors";
import { followAction } from "../follows/follow.action";
import { type RowEntry, ROWS } from "../interactions/kinds";
import { rowAction } from "../interactions/rows.action";
import { followRequested } from "../follows/follows.service";
import { renoteAction } from "../notes/renote.action";
import { blockAction } from "../safety/block.action";
import { reportAction } from "../reports/report.action";
import { REPORT_KINDS, REPORT_NOTE_MAX } from "../reports/reports.constants";
import { htmlToText, sanitizeHtml } from "../../lib/sanitize";
import { deleteAccount } from "../accounts/delete.service";
import { ACTIVITIES, rowOf } from "./activities";
import { isBlockedHost } from "./domains";
import { goneKeyOwner, isSelfDelete } from "./gone-actor";
import type { FedData } from "./context";
import { inboundAction } from "./inbound";
import { forgetObject, forgetting, rememberObject, storeActor, storedActorId, storedObject } from "./remote";
import { onMove } from "../moves/move-in";
import { receiveNote, reviseNote } from "./receive";
import { localActor, localTarget } from "./targets";
import { deletePost } from "../notes/delete.action";
import { sentNote } from "./attachments";
import { rememberSent, takeSent } from "./sent";

type Ctx = InboxContext<FedData>;

const acting = inboundAction;

const sameOrigin = (a: URL | null, b: URL | null) => !!a && !!b && a.origin === b.origin;

/** The sender as a stored NoteX account (fetched and stored the first time). */
async function sender(ctx: Ctx, activity: { getActor(o: unknown): Promise<Actor | null> }): Promise<number | null> {
  const actor = await activity.getActor(ctx);
  return actor ? storeActor(ctx.data.env, actor) : null;
}

/** A refusal our own service raises (a block, a missing note) ends the activity quietly; anything else is retried. */
async function quietly<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof AppError) return null;
    throw e;
  }
}

async function onFollow(ctx: Ctx, activity: Follow) {
  const local = await localActor(ctx, activity.objectId);
  if (local === null || !activity.id) return;
  const actor = await activity.getActor(ctx);
  const uid = actor ? await storeActor(ctx.data.env, actor) : null;
  if (!actor || uid === null) return;
  // A block either way (or a suspended account) answers Reject; otherwise the follow stands at once.
  const done = await quietly(followAction(acting(ctx), uid, local, true));
  // Its id, for the Reject that may end this follow later (outbox-reject.ts).
  if (done) await rememberSent(ctx.data.env, "follower", local, String(uid), activity.id);
  const answer = {
    id: new URL(`#${done ? "accept" : "reject"}/${uid}/${Date.now()}`, ctx.getActorUri(String(local))),
    actor: ctx.getActorUri(String(local)),
    object: activity,
  };
  await ctx.sendActivity({ identifier: String(local) }, actor, done ? new Accept(answer) : new Reject(answer));
}

async function onUndo(ctx: Ctx, undo: Undo) {
  const uid = await storedActorId(ctx.data.env, undo.actorId);
  if (uid === null || !sameOrigin(undo.objectId, undo.actorId)) return;
  const object = await undo.getObject(ctx);
  if (!object || !sameOrigin(object.id, undo.actorId)) return;
  const row = rowOf(object);
  if (object instanceof Follow) {
    const local = await localActor(ctx, object.objectId);
    if (local === null) return;
    await quietly(followAction(acting(ctx), uid, local, false));
    await takeSent(ctx.data.env, "follower", local, String(uid));
  } else if (row && object instanceof Activity) {
    const target = await localTarget(ctx, object.objectId);
    if (target) await quietly(rowAction(acting(ctx), row, uid, target, false));
  } else if (object instanceof Block) {
    const local = await localActor(ctx, object.objectId);
    if (local !== null) await quietly(blockAction(acting(ctx), uid, local, false));
  } else if (object instanceof Announce && object.id) {
    // Only the sender's own Announce, as stored when it came: its row names the renote it made.
    const own = await storedObject(ctx.data.env, object.id, uid);
    if (own?.kind !== "renote") return;
    const renoted = await ctx.data.env.DB.prepare("select renote_id as id from notes where id = ? and user_id = ?")
      .bind(own.row_id, uid)
      .first<{ id: number }>();
    if (renoted) await quietly(renoteAction(acting(ctx), uid, renoted.id, false));
    await forgetObject(ctx.data.env, object.id, uid);
  }
}

/** Our own Follow's id (outbox.ts: `{actor}#follows/{target}/{time}`) names the local follower: no fetch needed. */
async function ourFollower(ctx: Ctx, followId: URL | null): Promise<number | null> {
  if (!followId?.hash.startsWith("#follows/")) return null;
  return localActor(ctx, new URL(followId.href.slice(0, followId.href.indexOf("#"))));
}

/**
 * Our follow of a locked account was accepted: the request becomes the follow. Only a follow we
 * asked for and still wait on (an unlocked account's follow stood from the moment it was sent).
 */
async function onAccept(ctx: Ctx, accept: Accept) {
  const uid = await storedActorId(ctx.data.env, accept.actorId);
  const local = await ourFollower(ctx, accept.objectId);
  if (uid === null || local === null) return;
  if (await followRequested(dbFor(ctx.data.env.DB), local, uid))
    await quietly(followAction(acting(ctx), local, uid, true, true));
}

/**
 * A Follow embedded without an id (Mastodon's reject_embedded_follow): its actor, when that is
 * someone here and its object is the Reject's own sender (nobody ends another's follow). Nothing is
 * fetched: an object given by id only is ours (ourFollower) or nothing.
 */
async function embeddedFollower(ctx: Ctx, reject: Reject): Promise<number | null> {
  if (reject.objectId) return null;
  const follow = await reject.getObject(ctx);
  if (!(follow instanceof Follow) || !follow.objectId || follow.objectId.href !== reject.actorId?.href) return null;
  return localActor(ctx, follow.actorId);
}

async function onReject(ctx: Ctx, reject: Reject) {
  // They refused our follow (or the request for it), or removed us as a follower: it ends here too.
  const uid = await storedActorId(ctx.data.env, reject.actorId);
  if (uid === null) return;
  const local = (await ourFollower(ctx, reject.objectId)) ?? (await embeddedFollower(ctx, reject));
  if (local !== null) await quietly(followAction(acting(ctx), local, uid, false));
}

async function onCreate(ctx: Ctx, create: Create) {
  // An object claiming another server's id is dropped before anything is fetched or stored.
  if (!sameOrigin(create.objectId, create.actorId)) return;
  const object = (await sentNote(ctx, create)) ?? (await create.getObject(ctx));
  if (!(object instanceof Note) || !object.id) return;
  if (!sameOrigin(object.id, create.actorId) || object.attributionId?.href !== create.actorId?.href) return;
  const uid = await sender(ctx, create);
  if (uid !== null) await receiveNote(ctx, uid, object);
}

async function onUpdate(ctx: Ctx, update: Update) {
  if (!sameOrigin(update.objectId, update.actorId)) return;
  const object = (await sentNote(ctx, update)) ?? (await update.getObject(ctx));
  if (!object?.id || !sameOrigin(object.id, update.actorId)) return;
  if (object.id.href === update.actorId?.href) {
    // The profile as the signed Update carries it (a cached copy of their document may be older).
    if (isActor(object)) await storeActor(ctx.data.env, object);
    else await sender(ctx, update);
    return;
  }
  const uid = await storedActorId(ctx.data.env, update.actorId);
  if (uid !== null && object instanceof Note) await reviseNote(ctx, uid, object);
}

/**
 * A person elsewhere deleted their account: their copy here goes the way a local account's
 * deletion goes (deleteAccount on their users row: their posts, replies, likes, follows and
 * notifications, every counter they moved on others' content corrected; the rest cascades).
 */
async function removeActor(ctx: { data: FedData }, uid: number) {
  await deleteAccount(ctx.data.env, dbFor(ctx.data.env.DB), uid);
}

async function onDelete(ctx: Ctx, del: Delete) {
  const uid = await storedActorId(ctx.data.env, del.actorId);
  const id = del.objectId;
  if (uid === null || !id || !sameOrigin(id, del.actorId)) return;
  if (id.href === del.actorId?.href) return removeActor(ctx, uid);
  const stored = await storedObject(ctx.data.env, id, uid);
  const kind = stored?.kind;
  if (stored && (kind === "note" || kind === "reply"))
    // The stored copy goes the way its author's own delete would (counters, replies, notifications),
    // and its mapping in the same batch: a delete that fails keeps it, so the retry finds the post.
    // One already gone (with its thread) is a 404 that still forgets it.
    await quietly(
      deletePost(acting(ctx), uid, { kind, id: stored.row_id }, forgetting(dbFor(ctx.data.env.DB), id, uid)),
    );
  else if (stored) await forgetObject(ctx.data.env, id, uid);
}

/** A counted interaction with a table of its own (a Like: a like) on a post here: its action. */
const onRow = (row: RowEntry) => async (ctx: Ctx, activity: Activity) => {
  const target = await localTarget(ctx, activity.objectId);
  if (!target) return;
  const uid = await sender(ctx, activity);
  if (uid !== null) await quietly(rowAction(acting(ctx), row, uid, target, true));
};

async function onAnnounce(ctx: Ctx, announce: Announce) {
  const target = await localTarget(ctx, announce.objectId);
  if (target?.kind !== "note" || !announce.id || !sameOrigin(announce.id, announce.actorId)) return;
  const uid = await sender(ctx, announce);
  if (uid === null) return;
  const renoted = await quietly(renoteAction(acting(ctx), uid, target.id, true));
  if (!renoted) return;
  const row = await ctx.data.env.DB.prepare("select id from notes where user_id = ? and renote_id = ? and kind = 1")
    .bind(uid, renoted.done.id)
    .first<{ id: number }>();
  if (row) await rememberObject(ctx.data.env, announce.id, "renote", row.id, uid);
}

/**
 * A block from someone elsewhere (Mastodon's ActivityPub::Activity::Block): stored as theirs, so
 * the follows both ways end and the two stop seeing each other here, as a block made here does.
 */
async function onBlock(ctx: Ctx, activity: Block) {
  const local = await localActor(ctx, activity.objectId);
  if (local === null) return;
  const uid = await sender(ctx, activity);
  if (uid !== null) await quietly(blockAction(acting(ctx), uid, local, true));
}

/**
 * A report forwarded from another server (Mastodon's ActivityPub::Activity::Flag): each local post
 * it names joins the moderation queue, reported by the sender (their instance actor, stored as a
 * remote account like any actor), with the reason its content names, else "Other".
 */
async function onFlag(ctx: Ctx, flag: Flag) {
  const targets = [];
  for (const uri of flag.objectIds) {
    const target = await localTarget(ctx, uri);
    if (target) targets.push(target);
  }
  if (!targets.length) return;
  const uid = await sender(ctx, flag);
  if (uid === null) return;
  // "Reason: words" as NoteX sends it (outbox-flag.ts); anything else (Mastodon sends the
  // reporter's comment) is "Other" with the whole text as the note.
  const said = htmlToText(sanitizeHtml(flag.content?.toString() ?? "")).trim();
  const named = Object.entries(REPORT_KINDS).find(
    ([, name]) => said.toLowerCase() === name.toLowerCase() || said.toLowerCase().startsWith(`${name.toLowerCase()}: `),
  );
  const reason = Number(named?.[0] ?? 5);
  const note = (named ? said.slice(named[1].length).replace(/^: /, "") : said).slice(0, REPORT_NOTE_MAX);
  for (const t of targets) await quietly(reportAction(acting(ctx), uid, [t], reason, { note }));
}

/**
 * Nothing from a server the moderators blocked: its signed deliveries already get a 403 before
 * any check (federation.routes.ts, by the signature's key id); this catches an actor whose key is
 * kept on another host.
 */
const unlessBlocked =
  <A extends Activity>(listener: (ctx: Ctx, activity: A) => Promise<void>) =>
  async (ctx: Ctx, activity: A) => {
    if (activity.actorId && (await isBlockedHost(ctx.data.env.DB, activity.actorId.host))) return;
    await listener(ctx, activity);
  };

/**
 * A Delete of an actor whose document already answers 410 or 404 cannot be verified (its key went
 * with it), as Mastodon and Fedify's docs note. It is taken only as that actor's own end: the
 * activity's actor is the Delete's object and the owner of the key it was signed with (whose
 * document answered 410/404 just now). Anything else unverified keeps Fedify's 401.
 */
async function onGoneActor(ctx: RequestContext<FedData>, activity: Activity, reason: UnverifiedActivityReason) {
  const actor = goneKeyOwner(reason);
  if (!actor || !isSelfDelete(activity, actor)) return;
  const uri = new URL(actor);
  if (!(await isBlockedHost(ctx.data.env.DB, uri.host))) {
    const uid = await storedActorId(ctx.data.env, uri);
    if (uid !== null) await removeActor(ctx, uid);
  }
  return new Response(null, { status: 202 });
}

export function listenInbox(builder: FederationBuilder<FedData>) {
  const inbox = builder.setInboxListeners("/ap/users/{identifier}/inbox", "/ap/inbox");
  // Each federated counted interaction with a table of its own, by its activity (interactions/counted.ts).
  for (const row of ROWS) if (row.kind.activity) inbox.on(ACTIVITIES[row.kind.activity], unlessBlocked(onRow(row)));
  inbox
    .on(Follow, unlessBlocked(onFollow))
    .on(Undo, unlessBlocked(onUndo))
    .on(Accept, unlessBlocked(onAccept))
    .on(Reject, unlessBlocked(onReject))
    .on(Create, unlessBlocked(onCreate))
    .on(Update, unlessBlocked(onUpdate))
    .on(Delete, unlessBlocked(onDelete))
    .on(Announce, unlessBlocked(onAnnounce))
    .on(Block, unlessBlocked(onBlock))
    .on(Flag, unlessBlocked(onFlag))
    .on(Move, unlessBlocked(onMove))
    .onUnverifiedActivity(onGoneActor)
    .onError((_ctx, error) => {
      console.error(JSON.stringify({ t: "federation.inbox", error: String(error) }));
    });
}
