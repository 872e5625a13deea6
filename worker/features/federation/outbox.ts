// NoteX's own queue messages (context.ts OutMessage) turned into signed activities. Runs in the
// queue consumer, never in the author's request: the request enqueued one small message; here the
// activity is built from the database as it is now and handed to Fedify, which enqueues one
// delivery per inbox (followers' shared inboxes deduplicated) and signs each with the author's key.
import type { Context, Federation } from "@fedify/fedify";
import {
  type Activity,
  Announce,
  Block,
  Create,
  Delete,
  Follow,
  PUBLIC_COLLECTION,
  type Recipient,
  Tombstone,
  Undo,
  Update,
} from "@fedify/vocab";
import type { Env } from "../../env";
import { countedKind } from "../interactions/counted";
import { ROWS } from "../interactions/kinds";
import { ACTIVITIES } from "./activities";
import { type FedData, isRowMessage, type OutMessage, type RowMessage } from "./context";
import { followerInboxes, isSuspended, localNote, localReply, localUser, remoteActorById } from "./data";
import { farewellOf, type KnownInbox, knownBy } from "./farewell";
import { personOf } from "./person";
import { backfill } from "./backfill";
import { flagOut } from "./outbox-flag";
import { rejectOut } from "./outbox-reject";
import { linkNewRemotes } from "./link-mentions";
import { mentionedPeople } from "./mentions";
import { announceUri, noteUri, recipientOf, replyUri, toNote, toReplyNote } from "./objects";
import { hasMoved } from "../moves/followers";
import { moveOutbound } from "../moves/move-out";
import { rememberSent, type SentKind, takeSent } from "./sent";
import { reachedInboxes } from "./reach";

type Ctx = Context<FedData>;

/** Stored people's inboxes (one row per inbox) as Fedify's recipients. */
const toKnown = (rows: KnownInbox[]): Recipient[] =>
  rows.map((r) => ({
    id: new URL(r.uri),
    inboxId: new URL(r.inbox),
    endpoints: r.shared ? { sharedInbox: new URL(r.inbox) } : null,
  }));

/** The remote person behind a stored object (a note or reply that came from elsewhere), if any. */
async function remoteAuthorOf(env: Env, kind: "note" | "reply", id: number) {
  return env.DB.prepare(
    `select ro.uri as object_uri, ra.uri, ra.inbox, ra.shared_inbox from remote_objects ro join remote_actors ra on ra.user_id = ro.user_id
     where ro.kind = ? and ro.row_id = ?`,
  )
    .bind(kind, id)
    .first<{ object_uri: string; uri: string; inbox: string; shared_inbox: string | null }>();
}

/**
 * To the author's followers elsewhere (one delivery per server: their shared inboxes, deduplicated
 * in SQL) and to `also` (a remote author replied to or quoted), in one hand-over to Fedify, which
 * dedupes again by inbox. Nothing at all when nobody elsewhere is concerned: no key is made, no
 * message queued.
 */
async function toFollowers(ctx: Ctx, uid: number, activity: Activity, also: Recipient[] = []) {
  const to = [...toKnown(await followerInboxes(ctx.data.env.DB, uid)), ...also];
  if (!to.length) return;
  // An account that moved away (features/moves) federates nothing new; what it takes back still goes.
  if (!(activity instanceof Delete || activity instanceof Undo) && (await hasMoved(ctx.data.env.DB, uid))) return;
  await ctx.sendActivity({ identifier: String(uid) }, to, activity, { preferSharedInbox: true });
}

const audience = (ctx: Ctx, uid: number) => ({ to: PUBLIC_COLLECTION, cc: ctx.getFollowersUri(String(uid)) });

async function noteOut(ctx: Ctx, env: Env, m: Extract<OutMessage, { notex: "note" }>) {
  const actor = ctx.getActorUri(String(m.uid));
  if (m.op === "delete") {
    const id = noteUri(ctx, m.id);
    await toFollowers(
      ctx,
      m.uid,
      new Delete({ id: new URL(`${id.href}#delete`), actor, object: new Tombstone({ id }), ...audience(ctx, m.uid) }),
      toKnown(await reachedInboxes(env.DB, m, "note")),
    );
    return;
  }
  const row = await localNote(env.DB, m.id);
  if (!row || row.user_id !== m.uid) return;
  row.content = await linkNewRemotes(env, m.origin, "notes", row);
  const people = await mentionedPeople(env.DB, row.content);
  const mentioned = people.remotes;
  const note = toNote(ctx, row, people);
  if (!note?.id) return;
  const quoted = row.kind === 2 && row.renote_id ? await remoteAuthorOf(env, "note", row.renote_id) : null;
  const stamp = m.op === "update" ? `#update/${row.updated_at ?? Date.now()}` : "#create";
  const Kind = m.op === "update" ? Update : Create;
  await toFollowers(
    ctx,
    m.uid,
    new Kind({ id: new URL(`${note.id.href}${stamp}`), actor, object: note, to: PUBLIC_COLLECTION, ccs: note.ccIds }),
    [...(quoted ? [recipientOf(quoted)] : []), ...mentioned.map(recipientOf)],
  );
}

async function replyOut(ctx: Ctx, env: Env, m: Extract<OutMessage, { notex: "reply" }>) {
  const actor = ctx.getActorUri(String(m.uid));
  if (m.op === "delete") {
    const author = m.parent ? await remoteAuthorOf(env, m.parent.kind, m.parent.id) : null;
    const id = replyUri(ctx, m.id);
    await toFollowers(
      ctx,
      m.uid,
      new Delete({ id: new URL(`${id.href}#delete`), actor, object: new Tombstone({ id }), ...audience(ctx, m.uid) }),
      [...(author ? [recipientOf(author)] : []), ...toKnown(await reachedInboxes(env.DB, m, "reply"))],
    );
    return;
  }
  const row = await localReply(env.DB, m.id);
  if (!row || row.user_id !== m.uid) return;
  row.content = await linkNewRemotes(env, m.origin, "replies", row);
  const people = await mentionedPeople(env.DB, row.content);
  const mentioned = people.remotes;
  const note = toReplyNote(ctx, row, people);
  const author = row.parent_author_uri
    ? await env.DB.prepare("select uri, inbox, shared_inbox from remote_actors where uri = ?")
        .bind(row.parent_author_uri)
        .first<{ uri: string; inbox: string; shared_inbox: string | null }>()
    : null;
  const stamp = m.op === "update" ? `#update/${row.updated_at ?? Date.now()}` : "#create";
  const Kind = m.op === "update" ? Update : Create;
  await toFollowers(
    ctx,
    m.uid,
    new Kind({ id: new URL(`${note.id?.href}${stamp}`), actor, object: note, to: PUBLIC_COLLECTION, ccs: note.ccIds }),
    [...(author ? [recipientOf(author)] : []), ...mentioned.filter((p) => p.uri !== author?.uri).map(recipientOf)],
  );
}

async function renoteOut(ctx: Ctx, env: Env, m: Extract<OutMessage, { notex: "renote" }>) {
  const actor = ctx.getActorUri(String(m.uid));
  const original = await remoteAuthorOf(env, "note", m.target);
  const also = original ? [recipientOf(original)] : [];
  const object = original ? new URL(original.object_uri) : noteUri(ctx, m.target);
  const target = String(m.target);
  if (m.op === "create") {
    // Named by the renote's own row: a renote made again after an undo is a new Announce.
    const row = await env.DB.prepare("select id from notes where user_id = ? and renote_id = ? and kind = 1")
      .bind(m.uid, m.target)
      .first<{ id: number }>();
    if (!row) return;
    const id = announceUri(ctx, m.uid, m.target, row.id);
    await rememberSent(env, "announce", m.uid, target, id);
    await toFollowers(ctx, m.uid, new Announce({ id, actor, object, ...audience(ctx, m.uid) }), also);
    return;
  }
  const id = (await takeSent(env, "announce", m.uid, target)) ?? announceUri(ctx, m.uid, m.target);
  const announce = new Announce({ id, actor, object, ...audience(ctx, m.uid) });
  await toFollowers(
    ctx,
    m.uid,
    new Undo({ id: new URL(`${id.href}#undo`), actor, object: announce, ...audience(ctx, m.uid) }),
    also,
  );
}

/**
 * An activity that may be undone, as it goes out: a fresh id that is kept (sent.ts); its Undo
 * embeds it again with the id it went out with (a fresh one only when none was kept).
 */
async function undoable<T extends Activity>(
  ctx: Ctx,
  env: Env,
  m: { op: "create" | "delete"; uid: number },
  sent: { kind: SentKind; target: string; fresh: string },
  make: (id: URL) => T,
): Promise<T | Undo> {
  const actor = ctx.getActorUri(String(m.uid));
  if (m.op === "create") {
    const act = make(new URL(sent.fresh));
    if (act.id) await rememberSent(env, sent.kind, m.uid, sent.target, act.id);
    return act;
  }
  const act = make((await takeSent(env, sent.kind, m.uid, sent.target)) ?? new URL(sent.fresh));
  return new Undo({ id: new URL(`${act.id?.href}/undo/${Date.now()}`), actor, object: act });
}

/**
 * A counted interaction with a table of its own (a like) or its undoing, as its kind's activity
 * (interactions/counted.ts). One with local content stays local; one with a stored remote post
 * goes to its author.
 */
async function rowOut(ctx: Ctx, env: Env, m: RowMessage) {
  const kind = ROWS.find((r) => r.kind.name === m.notex)?.kind;
  const author = await remoteAuthorOf(env, m.kind, m.id);
  if (!kind?.activity || !author) return;
  const Kind = ACTIVITIES[kind.activity];
  const actor = ctx.getActorUri(String(m.uid));
  const target = `${m.kind}/${m.id}`;
  const activity = await undoable(
    ctx,
    env,
    m,
    { kind: m.notex, target, fresh: `${actor.href}#${kind.rows}/${target}/${Date.now()}` },
    (id) => new Kind({ id, actor, object: new URL(author.object_uri) }),
  );
  await ctx.sendActivity({ identifier: String(m.uid) }, recipientOf(author), activity);
}

/**
 * A follow or a block of someone elsewhere (or its Undo), to their own inbox. A block is told as
 * Mastodon tells it: their server then cuts the follows both ways (ours did in the block's batch).
 */
async function towardOut(ctx: Ctx, env: Env, m: Extract<OutMessage, { notex: "follow" | "block" }>) {
  const target = await remoteActorById(env.DB, m.target);
  if (!target) return;
  const actor = ctx.getActorUri(String(m.uid));
  const Kind = m.notex === "follow" ? Follow : Block;
  const activity = await undoable(
    ctx,
    env,
    m,
    { kind: m.notex, target: String(m.target), fresh: `${actor.href}#${m.notex}s/${m.target}/${Date.now()}` },
    (id) => new Kind({ id, actor, object: new URL(target.uri) }),
  );
  await ctx.sendActivity({ identifier: String(m.uid) }, recipientOf(target), activity);
}

/**
 * The account to every server that knows it (its followers' and the people it follows', one inbox
 * each), as Mastodon's DeleteAccountService and UpdateDistributionWorker send it: Update(Person)
 * with the profile as it is now; Delete(Person) signed with the keys kept for it (farewell.ts).
 */
async function accountOut(ctx: Ctx, env: Env, m: Extract<OutMessage, { notex: "account" }>) {
  const identifier = String(m.uid);
  const actor = ctx.getActorUri(identifier);
  if (m.op === "delete" || m.op === "suspend") {
    // A deleted account's servers were kept with its keys; a suspended one's are read now (lifted
    // meanwhile: nothing to say).
    const to =
      m.op === "delete"
        ? ((await farewellOf(env.DB, m.uid))?.to ?? [])
        : (await isSuspended(env.DB, m.uid))
          ? await knownBy(env.DB, m.uid)
          : [];
    const activity = new Delete({ id: new URL(`${actor.href}#delete`), actor, object: actor, to: PUBLIC_COLLECTION });
    if (to.length) await ctx.sendActivity({ identifier }, toKnown(to), activity, { preferSharedInbox: true });
    return;
  }
  const user = await localUser(env.DB, m.uid);
  const to = user ? toKnown(await knownBy(env.DB, m.uid)) : [];
  if (!user || !to.length) return;
  const person = await personOf(ctx, identifier, user);
  const activity = new Update({
    id: new URL(`${actor.href}#update/${Date.now()}`),
    actor,
    object: person,
    to: PUBLIC_COLLECTION,
  });
  await ctx.sendActivity({ identifier }, to, activity, { preferSharedInbox: true });
}

/** What a person does (a counted interaction, a follow, a block), not a retraction. */
const isNewAct = (m: OutMessage) =>
  (countedKind(m.notex) !== undefined || m.notex === "follow" || m.notex === "block") && m.op === "create";

export async function sendOut(federation: Federation<FedData>, env: Env, m: OutMessage): Promise<void> {
  // A suspended person's acts still queued stay here (their notes and replies are not read for
  // them either: data.ts); what they take back still goes.
  if (isNewAct(m) && "uid" in m && (await isSuspended(env.DB, m.uid))) return;
  const ctx = federation.createContext(new URL(m.origin), { env });
  if (m.notex === "move") await moveOutbound(ctx, m);
  else if (m.notex === "note") await noteOut(ctx, env, m);
  else if (m.notex === "reply") await replyOut(ctx, env, m);
  else if (m.notex === "renote") await renoteOut(ctx, env, m);
  else if (isRowMessage(m)) await rowOut(ctx, env, m);
  else if (m.notex === "follow" || m.notex === "block") await towardOut(ctx, env, m);
  else if (m.notex === "backfill") await backfill(ctx, m);
  else if (m.notex === "account") await accountOut(ctx, env, m);
  else if (m.notex === "reject") await rejectOut(ctx, env, m);
  else await flagOut(ctx, env, m);
}
