import type { users } from "../../db/schema/users";
import { userSegment } from "../../lib/links";
import type { NoteJson } from "../notes/notes.types";
import type { ReplyJson } from "../replies/replies.service";
import { placeholderHash, sizeMeta } from "../uploads/image-bytes";
import { absoluteLinks } from "../../lib/text";
import { isRemoteName, nameOf } from "../users/handle";
import { profileFields } from "../users/profile-fields";
import { kindOfId, replyNumber } from "../../lib/ids";

type UserRow = typeof users.$inferSelect;
/** What an account entity shows of a person's row. */
export type AccountRow = Pick<
  UserRow,
  | "id"
  | "username"
  | "fullname"
  | "avatar"
  | "cover"
  | "descr"
  | "followerNum"
  | "followingNum"
  | "noteNum"
  | "createdAt"
> & {
  /** A remote person's actor URI (a whole `users` row has it as `email`). */
  actor?: string | null;
  email?: string;
  /** A remote person's profile page on their server, and their profile fields as JSON [{name, value}]. */
  profileUrl?: string | null;
  fields?: string | LocalFields | null;
  /** A local person's links and place (a whole `users` row has them as columns; a read, in `fields`). */
  links?: string;
  location?: string;
};

/** A remote post's own ActivityPub id and, when it named one, its page. */
export interface RemoteObject {
  uri: string;
  url: string | null;
}

export type StatusRef = { kind: "note" | "reply"; id: number };

/** The ids of one kind among refs, at most 90 (a statement binds at most 100 parameters). */
export const refIds = (refs: StatusRef[], kind: StatusRef["kind"]) =>
  refs
    .filter((r) => r.kind === kind)
    .map((r) => r.id)
    .slice(0, 90);

/** A status id is its row's id: notes and replies share one id space (lib/ids.ts). */
export const noteStatusId = (id: number) => String(id);
export const replyStatusId = (id: number) => String(id);

/** A status id back to its row, or null for anything that is not one (never a 500). */
export function statusRef(raw: string | undefined): StatusRef | null {
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) return null;
  return { kind: kindOfId(n), id: n };
}

export const iso = (ms: number) => new Date(ms).toISOString();
const abs = (origin: string, url: string) => (!url ? "" : /^https?:\/\//.test(url) ? url : `${origin}${url}`);
const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A person a status mentions, as its row reads them (columns.ts mentionsJson); url and actor only for a remote one. */
export interface MentionRow {
  id: number;
  username: string;
  url: string | null;
  actor: string | null;
}

export interface Ctx {
  origin: string;
  accounts: Map<number, AccountRow>;
  bookmarked: Set<string>;
  /** Whom each status mentions, by "note:id" / "reply:id". */
  mentions: Map<string, MentionRow[]>;
  /** Each remote status's own id and page, by the same keys. */
  objects: Map<string, RemoteObject>;
  /** Each account's entity once built: a page shows the same few people on many statuses. */
  built?: Map<number, ReturnType<typeof account>>;
}

export function account(u: AccountRow, origin: string) {
  // A remote person is stored as name@host: Mastodon's username is the name, acct the whole handle,
  // and their url and uri are their actor on their own server.
  const actor = isRemoteName(u.username) ? (u.actor ?? u.email ?? null) : null;
  const page = `${origin}/${userSegment(u.username)}`;
  const uri = actor ?? page;
  // Without a picture NoteX draws a coloured initial; apps need an image URL, so they get the site's icon.
  const avatar = abs(origin, u.avatar) || `${origin}/favicon.svg`;
  const header = abs(origin, u.cover) || "";
  return {
    id: String(u.id),
    username: nameOf(u.username),
    acct: u.username,
    display_name: u.fullname,
    locked: false,
    bot: false,
    discoverable: true,
    indexable: true,
    group: false,
    created_at: iso(u.createdAt),
    note: u.descr ? `<p>${escapeHtml(u.descr).replace(/\n/g, "<br>")}</p>` : "",
    // Their profile page on their server (the actor's `url`), else their actor.
    url: actor ? u.profileUrl || actor : page,
    uri,
    avatar,
    avatar_static: avatar,
    header,
    header_static: header,
    followers_count: u.followerNum,
    following_count: u.followingNum,
    statuses_count: u.noteNum,
    last_status_at: null,
    hide_collections: false,
    noindex: false,
    emojis: [],
    roles: [],
    fields: actor ? remoteFields(u.fields) : profileFields(page, u.links !== undefined ? u : localOf(u.fields)),
  };
}

/** A remote person's profile fields as Mastodon's Field entities (values are sanitised HTML, remote.ts). */
function remoteFields(json: string | LocalFields | null | undefined) {
  const list = (typeof json === "string" ? JSON.parse(json || "[]") : []) as { name: string; value: string }[];
  return list.map((f) => ({ name: f.name, value: f.value, verified_at: null }));
}

interface LocalFields {
  links?: string;
  location?: string;
}

/**
 * A local person's links and place as a read carries them in `fields` (columns.ts fieldsOf): a JSON
 * text in a column of its own, an object already where the account came inside another JSON row
 * (accountJson: SQLite nests a json_object as JSON, not as a string).
 */
const localOf = (fields: string | LocalFields | null | undefined): LocalFields =>
  typeof fields === "string" ? JSON.parse(fields) : (fields ?? {});

/** The person's own account, with `source` (what update_credentials edits). */
export function credentialAccount(u: AccountRow, origin: string) {
  return {
    ...account(u, origin),
    source: { privacy: "public", sensitive: false, language: "", note: u.descr, fields: [], follow_requests_count: 0 },
    role: { id: "-99", name: "", permissions: "0", color: "", highlighted: false },
  };
}

const missingAccount = (id: number, username: string, fullname: string, origin: string) =>
  account(
    {
      id,
      username,
      fullname,
      avatar: "",
      cover: "",
      descr: "",
      followerNum: 0,
      followingNum: 0,
      noteNum: 0,
      createdAt: 0,
    },
    origin,
  );

function accountOf(ctx: Ctx, u: { id: number; username: string; fullname: string }) {
  ctx.built ??= new Map();
  const done = ctx.built.get(u.id);
  if (done) return done;
  const row = ctx.accounts.get(u.id);
  const made = row ? account(row, ctx.origin) : missingAccount(u.id, u.username, u.fullname, ctx.origin);
  ctx.built.set(u.id, made);
  return made;
}

/** Mastodon's Mention entities for a status: each person once, in the order the text names them. */
function mentionsOf(ctx: Ctx, key: string) {
  const rows = ctx.mentions.get(key) ?? [];
  return rows
    .filter((r, i) => rows.findIndex((o) => o.id === r.id) === i)
    .map((r) => ({
      id: String(r.id),
      username: nameOf(r.username),
      acct: r.username,
      url: isRemoteName(r.username) ? r.url || r.actor || "" : `${ctx.origin}/${userSegment(r.username)}`,
    }));
}

/** The x-label as a tag apps can show and follow: letters and digits only ("how to" → #howto). */
export const labelTag = (label: string) => label.toLowerCase().replace(/[^\p{L}\p{N}_]/gu, "");
const HASHTAG = /(?:^|[^\p{L}\p{N}_&/])#([\p{L}\p{N}_]{1,50})/gu;

function tagsOf(n: NoteJson, origin: string) {
  const names = new Set<string>();
  // A remote post's x-label is the one NoteX files every such post under, not a tag its author gave.
  const label = isRemoteName(n.user.username) ? "" : labelTag(n.label);
  if (label) names.add(label);
  for (const m of n.txt.matchAll(HASHTAG)) names.add(m[1].toLowerCase());
  return [...names].map((name) => ({ name, url: `${origin}/tag/${encodeURIComponent(name)}` }));
}

const baseStatus = {
  visibility: "public",
  sensitive: false,
  spoiler_text: "",
  application: null,
  mentions: [],
  emojis: [],
  poll: null,
  card: null,
  language: null,
  muted: false,
  pinned: false,
  filtered: [],
  text: null,
  quote: null,
  quote_approval: { automatic: ["public"], manual: [], current_user: "automatic" },
};

/** A media id: the file name of a note's image in R2, as POST /api/v2/media answers it. */
export const MEDIA_ID = /^[0-9a-f]{24}\.(gif|jpg|png|webp)$/;

/**
 * A Mastodon MediaAttachment for one of NoteX's images (served whole: the preview is the image),
 * with its size where it is known and its blurhash, or the grey placeholder where none was made
 * (apps draw a neutral box rather than none).
 */
export function mediaAttachment(
  id: string,
  url: string,
  description: string | null,
  size?: { width: number; height: number; blurhash?: string | null } | null,
) {
  return {
    id,
    type: "image",
    url,
    preview_url: url,
    remote_url: null,
    text_url: null,
    meta: size ? sizeMeta(size.width, size.height) : null,
    description,
    blurhash: size?.blurhash || placeholderHash(),
  };
}

/**
 * A note's images, each named by its file name when it is one of the author's uploads, so an app
 * that edits the status resends ids the edit takes back (another server's image keeps note-index).
 */
function media(n: NoteJson, origin: string) {
  return n.images.map((src, i) => {
    const file = src.split("/").at(-1) ?? "";
    const own = src.startsWith(`/img/u/${n.user.id}/note/`) && MEDIA_ID.test(file);
    return mediaAttachment(own ? file : `${n.id}-${i}`, abs(origin, src), n.alts[i] || null, n.dims?.[i]);
  });
}

/** The note's HTML, with its folders named after it (apps show the content; folders have no field). */
function contentOf(n: NoteJson, origin: string) {
  if (!n.folders.length) return absoluteLinks(n.content, origin);
  const links = n.folders
    .map((f) => `<a href="${origin}/${n.user.username}/x/${encodeURIComponent(f.slug)}">${escapeHtml(f.name)}</a>`)
    .join(", ");
  return `${absoluteLinks(n.content, origin)}<p>Filed in ${links}</p>`;
}

/** A note as a Status: a renote is a reblog wrapping its original, a quote a Mastodon 4.5 quote. */
export function noteStatus(n: NoteJson, ctx: Ctx): Record<string, unknown> {
  const id = noteStatusId(n.id);
  // A local note's uri is its ActivityPub id (federation.ts's Note dispatcher), a remote one's its
  // own id on its server, and its url the page it names there (else its id).
  const here = `${ctx.origin}/${n.user.username}/note/${n.id}`;
  const remote = ctx.objects.get(`note:${n.id}`);
  const uri = remote?.uri ?? (isRemoteName(n.user.username) ? here : `${ctx.origin}/ap/notes/${n.id}`);
  const url = remote ? remote.url || remote.uri : here;
  const inner = n.renote ? noteStatus(n.renote as NoteJson, ctx) : null;
  const common = {
    ...baseStatus,
    id,
    uri,
    url,
    created_at: iso(n.created_at),
    edited_at: n.edited_at ? iso(n.edited_at) : null,
    account: accountOf(ctx, n.user),
    in_reply_to_id: null,
    in_reply_to_account_id: null,
    reblogs_count: n.renum,
    favourites_count: n.likenum,
    replies_count: n.repnum,
    quotes_count: 0,
    favourited: n.liked,
    reblogged: n.renoted,
    bookmarked: ctx.bookmarked.has(`note:${n.id}`),
    mentions: mentionsOf(ctx, `note:${n.id}`),
  };
  if (n.kind === "renote")
    return {
      ...common,
      content: "",
      media_attachments: [],
      tags: [],
      reblog: inner,
      mentions: [],
      favourited: false,
      bookmarked: false,
    };
  return {
    ...common,
    content: contentOf(n, ctx.origin),
    media_attachments: media(n, ctx.origin),
    tags: tagsOf(n, ctx.origin),
    reblog: null,
    quote: n.kind === "quote" ? { state: inner ? "accepted" : "deleted", quoted_status: inner } : null,
  };
}

/** A reply as a Status in reply to its note or its parent reply. */
export function replyStatus(r: ReplyJson, ctx: Ctx, parentAuthor: number | null): Record<string, unknown> {
  const here = `${ctx.origin}/${r.user.username}/rep/${r.id}`;
  const remote = ctx.objects.get(`reply:${r.id}`);
  return {
    ...baseStatus,
    id: replyStatusId(r.id),
    uri: remote?.uri ?? (isRemoteName(r.user.username) ? here : `${ctx.origin}/ap/notes/r${replyNumber(r.id)}`),
    url: remote ? remote.url || remote.uri : here,
    created_at: iso(r.created_at),
    edited_at: null,
    account: accountOf(ctx, r.user),
    in_reply_to_id: r.parent_reply_id === null ? noteStatusId(r.note_id) : replyStatusId(r.parent_reply_id),
    in_reply_to_account_id: parentAuthor ? String(parentAuthor) : null,
    content: absoluteLinks(r.content, ctx.origin),
    media_attachments: [],
    tags: [],
    reblog: null,
    reblogs_count: 0,
    favourites_count: r.likenum,
    replies_count: r.repnum,
    quotes_count: 0,
    favourited: r.liked,
    reblogged: false,
    bookmarked: ctx.bookmarked.has(`reply:${r.id}`),
    mentions: mentionsOf(ctx, `reply:${r.id}`),
    quote_approval: { automatic: [], manual: [], current_user: "denied" },
  };
}
