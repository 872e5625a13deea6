// Remote people as NoteX accounts. The model (for the Mastodon client API and anything else that
// shows people): a remote person is a `users` row like any other, so every route that takes a user
// id (follows, blocks, mutes, reports, likes, notifications) works on them unchanged, plus one
// `remote_actors` row (actor URI, inbox, shared inbox, host, original profile URL). Their username
// is `name@host`; their email column holds the actor URI (unique, never a mail address), they have
// no password and no Google id, so they can never sign in; they have no folders.
import { type Actor, Link, PropertyValue } from "@fedify/vocab";
import type { DB, Env } from "../../env";
import { bindingOf } from "../../db/plan";
import { batchNamed, type Read } from "../../db/reads";
import { htmlToText, sanitizeHtml } from "../../lib/sanitize";
import { multiLine, oneLine } from "../../lib/text";
import { remoteSql } from "../users/locality";
import { isRemoteUsername } from "./handles";
import { mediaStatements, proxiedImage } from "./media";

const MAX_NAME = 100;
const MAX_BIO = 1000;
/** Profile fields kept per person (Mastodon shows 4; others allow more), each name and value capped. */
const MAX_FIELDS = 8;
const MAX_FIELD_NAME = 255;
const MAX_FIELD_VALUE = 2047;

/** Never fetches: only the fields the actor document carries inline are read. */
const noFetch = async (): Promise<never> => {
  throw new Error("profile fields are read inline only");
};

/**
 * The actor's profile fields (PropertyValue attachments: "Website", "Pronouns"…), as JSON
 * [{name, value}]: names on one line, values through the one sanitiser, as their bios are.
 */
async function fieldsOf(actor: Actor): Promise<string> {
  const fields: { name: string; value: string }[] = [];
  for await (const a of actor.getAttachments({ documentLoader: noFetch, suppressError: true })) {
    if (!(a instanceof PropertyValue)) continue;
    const name = oneLine(htmlToText(sanitizeHtml(a.name?.toString() ?? ""))).slice(0, MAX_FIELD_NAME);
    const value = sanitizeHtml(a.value?.toString() ?? "").slice(0, MAX_FIELD_VALUE);
    if (name) fields.push({ name, value });
    if (fields.length === MAX_FIELDS) break;
  }
  return JSON.stringify(fields);
}

/**
 * Where a remote actor's handle lives and what it is called there: `name@host`; null when the name
 * is outside the remote username grammar (handles.ts), and then the actor is not stored.
 */
export const handleOf = (actor: Actor): string | null => {
  const id = actor.id as URL;
  const name = actor.preferredUsername?.toString() ?? id.pathname.split("/").pop() ?? "";
  return isRemoteUsername(name) ? `${name}@${id.host.toLowerCase()}` : null;
};

const urlOf = (v: unknown): string => (v instanceof URL ? v.href : "");
/** Their profile page: an http(s) URL only (it becomes a link), or a Link object's href. */
const webUrlOf = (v: unknown): string => {
  const href = v instanceof URL ? v.href : v instanceof Link ? (v.href?.href ?? "") : "";
  return /^https?:\/\//i.test(href) ? href : "";
};

/**
 * Stores (or refreshes) a remote actor and answers its NoteX user id. One batch: the handle taken
 * from any other row, the users row (found again by its actor URI), then its remote_actors row. Names and bios go through the same
 * sanitiser and the same rules as local input (invisible characters dropped, a name on one line);
 * images are kept as this worker's proxy paths (media.ts). An actor whose username is outside the
 * remote grammar is not stored (null).
 */
export async function storeActor(env: Env, actor: Actor): Promise<number | null> {
  const id = actor.id;
  const inbox = actor.inboxId;
  const handle = handleOf(actor);
  if (!id || !inbox || !handle) return null;
  const name = oneLine(htmlToText(sanitizeHtml(actor.name?.toString() ?? ""))) || handle.split("@")[0];
  const bio = multiLine(htmlToText(sanitizeHtml(actor.summary?.toString() ?? "")));
  const icon = await actor.getIcon().catch(() => null);
  const image = await actor.getImage().catch(() => null);
  const shared = actor.endpoints?.sharedInbox ?? null;
  const fields = await fieldsOf(actor);
  const now = Date.now();
  const avatar = proxiedImage(env, urlOf(icon?.url));
  const cover = proxiedImage(env, urlOf(image?.url));
  // The handle goes to the actor stored last, as Mastodon keys a remote account by name@host: an
  // account re-created on its server (a new URI) would otherwise fail the unique name forever. The
  // row that held it keeps its data under `name~id@host`, a name no actor can claim (handles.ts).
  const free = env.DB.prepare(
    `update users set username = substr(username, 1, instr(username, '@') - 1) || '~' || id || substr(username, instr(username, '@'))
     where lower(username) = lower(?1) and email <> ?2 and ${remoteSql("users.id")}`,
  ).bind(handle, id.href);
  const person = env.DB.prepare(
    `insert into users (username, email, fullname, avatar, cover, descr, confirmed) values (?1, ?2, ?3, ?4, ?5, ?6, 1)
     on conflict(email) do update set username = excluded.username, fullname = excluded.fullname, avatar = excluded.avatar,
       cover = excluded.cover, descr = excluded.descr`,
  ).bind(handle, id.href, name.slice(0, MAX_NAME), avatar, cover, bio.slice(0, MAX_BIO));
  const stored = env.DB.prepare(
    `insert into remote_actors (user_id, uri, host, inbox, shared_inbox, url, fields, locked, fetched_at)
     values ((select id from users where email = ?1), ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
     on conflict(user_id) do update set inbox = excluded.inbox, shared_inbox = excluded.shared_inbox, url = excluded.url,
       fields = excluded.fields, locked = excluded.locked, fetched_at = excluded.fetched_at
     returning user_id as id`,
  ).bind(
    id.href,
    id.host.toLowerCase(),
    inbox.href,
    shared?.href ?? null,
    webUrlOf(actor.url),
    fields,
    actor.manuallyApprovesFollowers ? 1 : 0,
    now,
  );
  // The proxy serves these two images while this person is stored (media.ts).
  const media = mediaStatements(env.DB, { actorUri: id.href }, null, [avatar, cover]);
  const results = await batchNamed(env.DB, {
    free,
    person,
    stored,
    ...Object.fromEntries(media.map((statement, i) => [`media${i}`, statement])),
  });
  return (results.stored.results[0] as { id: number } | undefined)?.id ?? null;
}

/** The NoteX id of an actor already stored (no fetch): undo, delete and update name known senders. */
export const storedActorId = async (env: Env, uri: URL | null) =>
  uri
    ? ((
        await env.DB.prepare("select user_id as id from remote_actors where uri = ?")
          .bind(uri.href)
          .first<{ id: number }>()
      )?.id ?? null)
    : null;

/** A remote object stored here: its kind and row. */
export const storedObject = (env: Env, uri: URL, userId: number) =>
  env.DB.prepare("select kind, row_id from remote_objects where uri = ? and user_id = ?")
    .bind(uri.href, userId)
    .first<{ kind: string; row_id: number }>();

/** The page a remote post names as its `url` (an http(s) URL, or a Link's href); null without one. */
export const objectUrlOf = (url: unknown): string | null => webUrlOf(url) || null;

export const rememberObject = (env: Env, uri: URL, kind: string, rowId: number, userId: number, url?: string | null) =>
  env.DB.prepare(
    "insert into remote_objects (uri, kind, row_id, user_id, url) values (?, ?, ?, ?, ?) on conflict do nothing",
  )
    .bind(uri.href, kind, rowId, userId, url ?? null)
    .run();

/** Forgets a remote object, only as its own author's (another actor's object of the same id is kept). */
const FORGET = "delete from remote_objects where uri = ? and user_id = ?";

export const forgetObject = (env: Env, uri: URL, userId: number) => env.DB.prepare(FORGET).bind(uri.href, userId).run();

/** forgetObject as part of another write's batch: the mapping goes exactly when that write does. */
export const forgetting = (db: DB, uri: URL, userId: number): Read<undefined> => ({
  statements: [bindingOf(db).prepare(FORGET).bind(uri.href, userId)],
  value: () => undefined,
});
