// The reads federation needs, in plain SQL over the raw D1 binding. Who is local is the one rule
// of users/locality.ts; suspended accounts are not on the fediverse either: their actor and
// collections answer 410, as a deleted account's do.
import { localSql } from "../users/locality";

export interface LocalUser {
  id: number;
  username: string;
  fullname: string;
  descr: string;
  avatar: string;
  cover: string;
  /** JSON [{name, value, verified_at}] (features/users/profile.schema.ts). */
  links: string;
  location: string;
  created_at: number;
  follower_num: number;
  following_num: number;
  note_num: number;
}

const IS_LOCAL = localSql("users.id");
const LOCAL = `${IS_LOCAL} and suspended_at is null`;

/** Whether `id` is an account of this server's (suspended too): the only ids an activity may address here. */
export const isLocalId = (db: D1Database, id: number) =>
  db
    .prepare(`select 1 as here from users where id = ? and ${IS_LOCAL}`)
    .bind(id)
    .first<{ here: number }>()
    .then((r) => r !== null);

/** A local account a moderator suspended (its actor answers 410 meanwhile). */
export const isSuspended = (db: D1Database, id: number) =>
  db
    .prepare(`select 1 as x from users where id = ? and suspended_at is not null and ${IS_LOCAL}`)
    .bind(id)
    .first()
    .then((r) => r !== null);

export const localUser = (db: D1Database, id: number) =>
  db.prepare(`select * from users where id = ? and ${LOCAL}`).bind(id).first<LocalUser>();

/**
 * A handle's local account (suspended ones too: they answer 410): its name now, or a name it gave
 * up by renaming (the actor URI never changed).
 */
export async function localIdByName(db: D1Database, name: string): Promise<number | null> {
  const row = await db
    .prepare(
      `select coalesce((select id from users where lower(username) = lower(?1) and ${IS_LOCAL}), (select user_id from former_usernames where username = lower(?1))) as id`,
    )
    .bind(name)
    .first<{ id: number | null }>();
  return row?.id ?? null;
}

/**
 * Whether an actor id of ours is "active" (a local account that federates), "gone" (a local
 * account suspended, or deleted: deleted_accounts keeps its id) or null (never a local account).
 */
export const actorState = (db: D1Database, id: number) =>
  db
    .prepare(
      `select case when exists (select 1 from users where id = ?1 and ${LOCAL}) then 'active'
         when exists (select 1 from users where id = ?1 and ${IS_LOCAL}) or exists (select 1 from deleted_accounts where id = ?1) then 'gone'
       end as state`,
    )
    .bind(id)
    .first<{ state: "active" | "gone" | null }>()
    .then((r) => r?.state ?? null);

export interface NoteRow {
  id: number;
  user_id: number;
  username: string;
  kind: number;
  label: string;
  content: string;
  imgs: string;
  alts: string;
  /** notes.dims: the images' sizes and blurhashes (uploads/image-dims.ts). */
  dims: string;
  video: string;
  renote_id: number | null;
  created_at: number;
  updated_at: number | null;
  /** The quoted or renoted note's object URI when it came from another server. */
  renote_uri: string | null;
  tags: string | null;
}

const NOTE_COLUMNS = `n.id, n.user_id, u.username, n.kind, n.label, n.content, n.imgs, n.alts, n.dims, n.video, n.renote_id,
  n.created_at, n.updated_at,
  (select ro.uri from remote_objects ro where ro.kind in ('note', 'renote') and ro.row_id = n.renote_id) as renote_uri,
  (select group_concat(tag, ' ') from note_tags t where t.note_id = n.id) as tags`;

/** A local author's visible note (not hidden, author active and local). */
export const localNote = (db: D1Database, id: number) =>
  db
    .prepare(
      `select ${NOTE_COLUMNS} from notes n join users u on u.id = n.user_id
       where n.id = ? and n.hidden_at is null and u.suspended_at is null
       and ${localSql("n.user_id")}`,
    )
    .bind(id)
    .first<NoteRow>();

/** One page of a local account's own notes, newest first, below `before` (keyset on id). */
export const localNotesPage = (db: D1Database, uid: number, before: number, size: number) =>
  db
    .prepare(
      `select ${NOTE_COLUMNS} from notes n join users u on u.id = n.user_id
       where n.user_id = ? and n.id < ? and n.hidden_at is null and u.suspended_at is null
       and ${localSql("n.user_id")} order by n.id desc limit ?`,
    )
    .bind(uid, before, size)
    .all<NoteRow>()
    .then((r) => r.results);

export interface ReplyRow {
  id: number;
  user_id: number;
  username: string;
  note_id: number;
  parent_reply_id: number | null;
  content: string;
  created_at: number;
  updated_at: number | null;
  /** The object URI of what it answers: the parent reply's, else the note's (remote or local). */
  parent_uri: string | null;
  parent_author_uri: string | null;
}

export const localReply = (db: D1Database, id: number) =>
  db
    .prepare(
      `select r.id, r.user_id, u.username, r.note_id, r.parent_reply_id, r.content, r.created_at, r.updated_at,
       (select ro.uri from remote_objects ro where (r.parent_reply_id is null and ro.kind = 'note' and ro.row_id = r.note_id)
          or (ro.kind = 'reply' and ro.row_id = r.parent_reply_id)) as parent_uri,
       (select ra.uri from remote_actors ra where ra.user_id = case when r.parent_reply_id is null
          then (select user_id from notes where id = r.note_id) else (select user_id from replies where id = r.parent_reply_id) end) as parent_author_uri
       from replies r join users u on u.id = r.user_id
       where r.id = ? and r.hidden_at is null and u.suspended_at is null
       and ${localSql("r.user_id")}`,
    )
    .bind(id)
    .first<ReplyRow>();

export interface FollowerRow {
  user_id: number;
  uri: string;
  inbox: string;
  shared_inbox: string | null;
}

/**
 * One page, by id, of the people on other servers who follow an account ("followers": the ones
 * deliveries go to) or whom it follows ("following").
 */
export function remotePeoplePage(
  db: D1Database,
  which: "followers" | "following",
  uid: number,
  after: number,
  size: number,
) {
  const [mine, theirs] = which === "followers" ? ["followee_id", "follower_id"] : ["follower_id", "followee_id"];
  return db
    .prepare(
      `select ra.user_id, ra.uri, ra.inbox, ra.shared_inbox from follows f join remote_actors ra on ra.user_id = f.${theirs}
       where f.${mine} = ? and f.${theirs} > ? order by f.${theirs} limit ?`,
    )
    .bind(uid, after, size)
    .all<FollowerRow>()
    .then((r) => r.results);
}

/**
 * Where an account's followers elsewhere are delivered to: one row per inbox, a server's shared
 * inbox standing for all its people there (so a post to 10,000 followers on 500 servers is 500
 * deliveries), read in one statement along follows_followee_created_idx. `uri`: one of the
 * people behind it (Fedify names a recipient by an actor).
 */
export const followerInboxes = (db: D1Database, uid: number) =>
  db
    .prepare(
      `select coalesce(ra.shared_inbox, ra.inbox) as inbox, min(ra.uri) as uri, max(ra.shared_inbox is not null) as shared
       from follows f join remote_actors ra on ra.user_id = f.follower_id
       where f.followee_id = ? group by coalesce(ra.shared_inbox, ra.inbox)`,
    )
    .bind(uid)
    .all<{ inbox: string; uri: string; shared: number }>()
    .then((r) => r.results);

export const remoteActorById = (db: D1Database, uid: number) =>
  db.prepare("select * from remote_actors where user_id = ?").bind(uid).first<FollowerRow & { host: string }>();

export const counts = (db: D1Database) =>
  db
    .prepare(
      `select (select count(*) from users where ${LOCAL}) as users,
       (select count(*) from notes n where ${localSql("n.user_id")}) as notes`,
    )
    .first<{ users: number; notes: number }>();
