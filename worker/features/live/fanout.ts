// Who a write reaches live, worked out on a publisher hub after the request has answered: the
// author's online followers (live_following, so the cost is theirs, not all followers'), less those
// who mute or block the author or are blocked; the public and hashtag streams on every shard, less
// the same people; the notices the write made for people online; a thread's open pages.
import { dbFor } from "../../db/client";
import { eachOf, type Read, readOne } from "../../db/reads";
import type { DB, Env } from "../../env";
import { isRowMessage, type OutMessage } from "../federation/context";
import { noticeEntities } from "../mastodon/notifications.routes";
import { noteStatusId, replyStatusId, type StatusRef } from "../mastodon/serialise";
import { statusesOf } from "../mastodon/statuses.service";
import { isRemoteName } from "../users/handle";
import { type Delivery, SHARDS, shardOf } from "./shards";

type Send = (shard: number, items: Delivery[]) => Promise<void>;
type Status = Record<string, unknown>;

const rows = <T>(statement: D1PreparedStatement): Read<T[]> => ({
  statements: [statement],
  value: ([r]) => r.results as T[],
});

/** The author's online followers who have not muted or blocked them (nor been blocked), and the author. */
const AUDIENCE = `select lf.follower_id as id from live_following lf
  where lf.followee_id = ?1
    and not exists (select 1 from mutes m where m.muter_id = lf.follower_id and m.muted_id = ?1)
    and not exists (select 1 from blocks b where b.blocker_id = lf.follower_id and b.blocked_id = ?1)
    and not exists (select 1 from blocks b where b.blocker_id = ?1 and b.blocked_id = lf.follower_id)
  union select account_id from live_presence where account_id = ?1`;

/** People online whom a public stream must not show the author to. */
const SKIP = `select p.account_id as id from live_presence p where p.account_id in (
    select muter_id from mutes where muted_id = ?1
    union select blocker_id from blocks where blocked_id = ?1
    union select blocked_id from blocks where blocker_id = ?1)`;

/** What a new status can notify someone of: each probes notifications_once_uq whole. */
const STATUS_NOTICES = "'note', 'mention', 'reply', 'quote'";

/**
 * The audience of a new status (AUDIENCE), each with the notices it made for them: one read, no list
 * of ids sent back to D1 (a post to 10,000 online followers would bind them all).
 */
const AUDIENCE_NOTICED = `select a.id, n.id as notice, n.action from (${AUDIENCE}) a
  left join notifications n on n.user_id = a.id and n.actor_id = ?1 and n.action in (${STATUS_NOTICES})
    and n.tblname = ?2 and n.target_id = ?3`;

/** The notices a write made for people among `candidates` who are online (the unique key's prefix). */
const NOTICES = `select n.id, n.user_id as uid, n.action from notifications n
  where n.user_id in (select value from json_each(?1)) and n.actor_id = ?2 and n.tblname = ?3 and n.target_id = ?4
    and n.user_id in (select account_id from live_presence)`;

/** A note's counters, for the pages showing it. */
const COUNTS = "select id, likenum as likes, renum as renotes, repnum as replies from notes where id = ?";

/**
 * Deliveries grouped by shard: `to` (and each person's notice id, `ids`) split by each person's
 * shard, streams sent to every shard.
 */
class Plan {
  private by = new Map<number, Delivery[]>();
  add(d: Delivery) {
    const { to, ids, ...rest } = d;
    const parts = new Map<number, { to: number[]; ids: number[] }>();
    (to ?? []).forEach((uid, i) => {
      const part = parts.get(shardOf(uid)) ?? { to: [], ids: [] };
      if (!part.to.length) parts.set(shardOf(uid), part);
      part.to.push(uid);
      if (ids) part.ids.push(ids[i]);
    });
    const everywhere = !!(rest.streams?.length || rest.anyTag);
    for (let s = 0; s < SHARDS; s++) {
      const part = parts.get(s);
      if (!part && !everywhere) continue;
      const mine = part ? { to: part.to, ...(ids ? { ids: part.ids } : {}) } : {};
      const item: Delivery = { ...rest, ...mine };
      const items = this.by.get(s);
      if (items) items.push(item);
      else this.by.set(s, [item]);
    }
  }
  async send(send: Send) {
    await Promise.all([...this.by].map(([shard, items]) => send(shard, items)));
  }
}

const ids = (list: { id: number }[]) => list.map((r) => r.id);

/** The public and hashtag streams a status belongs in (Mastodon's: public posts only, no reblogs). */
function publicStreams(status: Status): string[] {
  if (status.visibility !== "public" || status.reblog) return [];
  const local = !isRemoteName(String((status.account as { acct?: string })?.acct ?? ""));
  const tags = ((status.tags as { name: string }[]) ?? []).map((t) => t.name.toLowerCase());
  return [
    "public",
    ...(local ? ["public:local"] : []),
    ...tags.map((t) => `hashtag|${t}`),
    ...(local ? tags.map((t) => `hashtag:local|${t}`) : []),
  ];
}

type Notice = { id: number; uid: number; action: string };

/**
 * Notices as Mastodon's: one delivery per kind of notice, rendered once (a new note's are the same
 * for every follower but their ids), each person's own id beside them (the hub fills it in).
 */
async function noticeDeliveries(db: DB, origin: string, found: Notice[]) {
  const byAction = new Map<string, Notice[]>();
  for (const n of found) {
    const same = byAction.get(n.action);
    if (same) same.push(n);
    else byAction.set(n.action, [n]);
  }
  const out: Delivery[] = [];
  for (const [, kind] of byAction) {
    const [n] = kind;
    const { items } = await noticeEntities(db, origin, n.uid, { page: 1, from: { id: n.id, start: "at" }, size: 1 });
    const shape = items.find((i) => i.id === String(n.id));
    if (!shape) continue;
    const { id: _id, group_key: _key, ...rest } = shape;
    out.push({
      event: "notification",
      payload: JSON.stringify(rest),
      to: kind.map((k) => k.uid),
      ids: kind.map((k) => k.id),
    });
  }
  return out;
}

/** A new or edited note or reply (or a renote, whose status is the reblog). */
async function posted(env: Env, db: DB, msg: OutMessage & { uid: number }, ref: StatusRef, thread: number | null) {
  const origin = msg.origin;
  const { uid } = msg;
  const [status] = await statusesOf(db, origin, null, [ref]);
  // Hidden, removed, or its author suspended: it reaches no one.
  if (!status) return null;
  const created = msg.op === "create";
  // Who else a new status can notify than its online followers: whom it mentions, whom it answers.
  const named = [
    ...((status.mentions as { id: string }[]) ?? []).map((m) => Number(m.id)),
    Number(status.in_reply_to_account_id ?? 0),
  ].filter((id) => id > 0 && id !== uid);
  const [audience, skip, counts, others] = await readOne(
    db,
    eachOf<unknown[]>([
      created
        ? rows<Audience>(env.DB.prepare(AUDIENCE_NOTICED).bind(uid, ref.kind, ref.id))
        : rows<Audience>(env.DB.prepare(AUDIENCE).bind(uid)),
      rows<{ id: number }>(env.DB.prepare(SKIP).bind(uid)),
      thread ? rows(env.DB.prepare(COUNTS).bind(thread)) : { statements: [], value: () => [] },
      created && named.length ? noticesAmong(env, named, uid, ref) : { statements: [], value: () => [] },
    ]),
  );
  const people = audience as Audience[];
  const plan = new Plan();
  const event = msg.op === "update" ? "status.update" : "update";
  const payload = JSON.stringify(status);
  const streams = [...publicStreams(status), ...(thread ? [`note|${thread}`] : [])];
  plan.add({ event, payload, to: [...new Set(ids(people))], streams, skip: ids(skip as { id: number }[]) });
  if (counts[0]) plan.add(countsFrame(counts[0], uid, thread as number));
  if (created) {
    const seen = new Set<number>();
    const notices: Notice[] = [];
    for (const n of [
      ...people.flatMap((p) => (p.notice ? [{ id: p.notice, uid: p.id, action: p.action as string }] : [])),
      ...(others as Notice[]),
    ])
      if (!seen.has(n.id)) {
        seen.add(n.id);
        notices.push(n);
      }
    for (const d of await noticeDeliveries(db, origin, notices)) plan.add(d);
  }
  return plan;
}

type Audience = { id: number; notice?: number | null; action?: string | null };

/** The notices `actor`'s write about `about` made for those of `candidates` who are online. */
const noticesAmong = (env: Env, candidates: number[], actor: number, about: { kind: string; id: number }) =>
  rows<Notice>(env.DB.prepare(NOTICES).bind(JSON.stringify([...new Set(candidates)]), actor, about.kind, about.id));

/** A counted interaction (a like, a renote's notice), a follow: the one person it is about, if online; and a note's counters. */
async function interacted(env: Env, db: DB, msg: OutMessage, owner: number, about: { kind: string; id: number }) {
  if (!("uid" in msg)) return null;
  const plan = new Plan();
  const [notices, counts] = await readOne(
    db,
    eachOf<unknown[]>([
      noticesAmong(env, [owner], msg.uid, about),
      about.kind === "note" ? rows(env.DB.prepare(COUNTS).bind(about.id)) : { statements: [], value: () => [] },
    ]),
  );
  if (msg.op === "create") for (const d of await noticeDeliveries(db, msg.origin, notices as Notice[])) plan.add(d);
  if (counts[0]) plan.add(countsFrame(counts[0], msg.uid, about.id));
  return plan;
}

/**
 * A thread's counters for the pages that have it open, naming who moved them: that person's own
 * page already shows the change (the action's answer carries it) and reads nothing again.
 */
const countsFrame = (counts: unknown, by: number, note: number) => ({
  event: "notex.counts",
  payload: JSON.stringify({ ...(counts as object), by }),
  streams: [`note|${note}`],
});

/** A one-value read of the owner of a note or reply (0 when it is gone). */
async function ownerOf(env: Env, kind: "note" | "reply", id: number) {
  const row = await env.DB.prepare(`select user_id as uid from ${kind === "note" ? "notes" : "replies"} where id = ?`)
    .bind(id)
    .first<{ uid: number }>();
  return row?.uid ?? 0;
}

async function threadOf(env: Env, replyId: number) {
  const row = await env.DB.prepare("select note_id as id from replies where id = ?")
    .bind(replyId)
    .first<{ id: number }>();
  return row?.id ?? null;
}

/** Works out `msg`'s deliveries and sends each shard its part. */
export async function fanOut(env: Env, msg: OutMessage, send: Send): Promise<void> {
  const db = dbFor(env.DB);
  let plan: Plan | null = null;
  if ((msg.notex === "note" || msg.notex === "reply") && msg.op === "delete") {
    const id = msg.notex === "note" ? noteStatusId(msg.id) : replyStatusId(msg.id);
    const audience = await readOne(db, rows<{ id: number }>(env.DB.prepare(AUDIENCE).bind(msg.uid)));
    plan = new Plan();
    plan.add({ event: "delete", payload: id, to: ids(audience), streams: ["public", "public:local"], anyTag: true });
    // Pages with the note open are told who removed it: the person who did is already elsewhere.
    if (msg.notex === "note")
      plan.add({ event: "notex.gone", payload: JSON.stringify({ by: msg.uid }), streams: [`note|${msg.id}`] });
  } else if (msg.notex === "note") plan = await posted(env, db, msg, { kind: "note", id: msg.id }, msg.id);
  else if (msg.notex === "reply")
    plan = await posted(env, db, msg, { kind: "reply", id: msg.id }, await threadOf(env, msg.id));
  else if (msg.notex === "renote" && msg.op === "create") {
    const row = await env.DB.prepare("select id from notes where user_id = ? and renote_id = ? and kind = 1")
      .bind(msg.uid, msg.target)
      .first<{ id: number }>();
    plan = row ? await posted(env, db, { ...msg, op: "create" }, { kind: "note", id: row.id }, null) : null;
    const extra = await interacted(env, db, msg, await ownerOf(env, "note", msg.target), {
      kind: "note",
      id: msg.target,
    });
    if (plan && extra) await extra.send(send);
    else plan = extra;
  } else if (msg.notex === "renote") plan = await interacted(env, db, msg, 0, { kind: "note", id: msg.target });
  else if (isRowMessage(msg))
    plan = await interacted(env, db, msg, await ownerOf(env, msg.kind, msg.id), { kind: msg.kind, id: msg.id });
  else if (msg.notex === "follow" && msg.op === "create")
    plan = await interacted(env, db, msg, msg.target, { kind: "", id: 0 });
  await plan?.send(send);
}
