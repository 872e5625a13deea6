// NoteX content as ActivityStreams objects. Public notes and replies are Notes addressed to Public
// with the author's followers in cc (as Mastodon's public posts); a renote is an Announce; a quote
// carries the quoted note's URI in `quote` (FEP-044f), `quoteUrl` and `_misskey_quote` (Fedify's
// Note.quoteUrl writes the last two). An x-label travels as a Hashtag-like tag named #label that
// links to the label's page on NoteX; x-folders stay NoteX's own.
import type { Context } from "@fedify/fedify";
import { Announce, Document, Hashtag, Link, Mention, Note, PUBLIC_COLLECTION, type Recipient } from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import type { FedData } from "./context";
import type { NoteRow, ReplyRow } from "./data";
import type { MentionedRemote } from "./mentions";

const instant = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms);

/** NoteX stores links relative to the site ("/ada", "/tag/x"): other servers need them absolute. */
export const absolutize = (html: string, origin: URL) =>
  html.replace(/(href|src)="\/(?!\/)/g, (_m, attr: string) => `${attr}="${origin.origin}/`);

export const noteUri = (ctx: Context<FedData>, id: number) => ctx.getObjectUri(Note, { id: String(id) });
/** Replies share the Note route (Fedify keeps one object route per class): /ap/notes/r{id}. */
export const replyUri = (ctx: Context<FedData>, id: number) => ctx.getObjectUri(Note, { id: `r${id}` });

/** A plain renote's Announce, named by who and what (one plain renote per person per note). */
export const announceUri = (ctx: Context<FedData>, uid: number, noteId: number) =>
  ctx.getObjectUri(Announce, { uid: String(uid), note: String(noteId) });

function attachments(row: NoteRow, origin: URL) {
  const alts: string[] = (() => {
    try {
      return JSON.parse(row.alts) as string[];
    } catch {
      return [];
    }
  })();
  const imgs = row.imgs ? row.imgs.split(";").filter(Boolean) : [];
  const out: (Document | Link)[] = imgs.map(
    (src, i) => new Document({ url: new URL(src, origin), mediaType: "image/*", name: alts[i] || null }),
  );
  if (row.video) out.push(new Link({ href: new URL(row.video, origin), mediaType: "text/html" }));
  return out;
}

/** A Mention tag per person elsewhere the text links (mentions.ts), for `tag` and `cc`. */
const mentionTags = (people: MentionedRemote[]) =>
  people.map((p) => new Mention({ href: new URL(p.uri), name: `@${p.username}` }));

/** A note (kind 0) or quote (kind 2) as a Note; null for a plain renote (that is an Announce). */
export function toNote(ctx: Context<FedData>, row: NoteRow, mentions: MentionedRemote[] = []): Note | null {
  if (row.kind === 1) return null;
  const origin = new URL(ctx.canonicalOrigin);
  const author = ctx.getActorUri(String(row.user_id));
  const quoted =
    row.kind === 2 && row.renote_id !== null
      ? row.renote_uri
        ? new URL(row.renote_uri)
        : noteUri(ctx, row.renote_id)
      : null;
  const tags = (row.tags ?? "").split(" ").filter(Boolean);
  return new Note({
    id: noteUri(ctx, row.id),
    attribution: author,
    url: new URL(`/${row.username}/note/${row.id}`, origin),
    content: absolutize(row.content, origin),
    published: instant(row.created_at),
    updated: row.updated_at ? instant(row.updated_at) : null,
    to: PUBLIC_COLLECTION,
    ccs: [ctx.getFollowersUri(String(row.user_id)), ...mentions.map((p) => new URL(p.uri))],
    attachments: attachments(row, origin),
    tags: [
      ...mentionTags(mentions),
      ...tags.map((t) => new Hashtag({ name: `#${t}`, href: new URL(`/tag/${encodeURIComponent(t)}`, origin) })),
      ...(row.label
        ? [new Hashtag({ name: `#${row.label}`, href: new URL(`/xlabel/${encodeURIComponent(row.label)}`, origin) })]
        : []),
    ],
    quote: quoted,
    quoteUrl: quoted,
  });
}

/** A plain renote as the Announce of the original (remote originals by their own URI). */
export function toAnnounce(ctx: Context<FedData>, row: NoteRow): Announce | null {
  if (row.kind !== 1 || row.renote_id === null) return null;
  return new Announce({
    id: announceUri(ctx, row.user_id, row.renote_id),
    actor: ctx.getActorUri(String(row.user_id)),
    object: row.renote_uri ? new URL(row.renote_uri) : noteUri(ctx, row.renote_id),
    published: instant(row.created_at),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(String(row.user_id)),
  });
}

/** A reply as a Note in reply to its parent (the parent's own URI when it came from elsewhere). */
export function toReplyNote(ctx: Context<FedData>, row: ReplyRow, mentions: MentionedRemote[] = []): Note {
  const origin = new URL(ctx.canonicalOrigin);
  const parent = row.parent_uri
    ? new URL(row.parent_uri)
    : row.parent < 0
      ? noteUri(ctx, -row.parent)
      : replyUri(ctx, row.parent);
  return new Note({
    id: replyUri(ctx, row.id),
    attribution: ctx.getActorUri(String(row.user_id)),
    url: new URL(`/${row.username}/rep/${row.id}`, origin),
    content: absolutize(row.content, origin),
    published: instant(row.created_at),
    updated: row.updated_at ? instant(row.updated_at) : null,
    replyTarget: parent,
    to: PUBLIC_COLLECTION,
    ccs: [
      ctx.getFollowersUri(String(row.user_id)),
      ...(row.parent_author_uri ? [new URL(row.parent_author_uri)] : []),
      ...mentions.map((p) => new URL(p.uri)).filter((u) => u.href !== row.parent_author_uri),
    ],
    tags: mentionTags(mentions),
  });
}

/** A stored remote person as Fedify's recipient (their inbox, and their server's shared one). */
export const recipientOf = (r: { uri: string; inbox: string; shared_inbox: string | null }): Recipient => ({
  id: new URL(r.uri),
  inboxId: new URL(r.inbox),
  endpoints: r.shared_inbox ? { sharedInbox: new URL(r.shared_inbox) } : null,
});
