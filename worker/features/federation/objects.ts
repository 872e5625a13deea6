// NoteX content as ActivityStreams objects. Public notes and replies are Notes addressed to Public
// with the author's followers in cc (as Mastodon's public posts); a renote is an Announce; a quote
// carries the quoted note's URI in `quote` (FEP-044f), `quoteUrl` and `_misskey_quote` (Fedify's
// Note.quoteUrl writes the last two). An x-label travels as a Link tag with NoteX's own relation
// (other servers ignore it, another NoteX reads it back) and a visible "[label]" line atop the text,
// never as a Hashtag (docs/decisions/026-xlabel-federated.md); x-folders stay NoteX's own.
import type { Context } from "@fedify/fedify";
import {
  Announce,
  type Document,
  Hashtag,
  Link,
  Mention,
  Note,
  PUBLIC_COLLECTION,
  type Recipient,
} from "@fedify/vocab";
import { Temporal } from "@js-temporal/polyfill";
import { absoluteLinks, escapeHtml } from "../../lib/text";
import type { FedData } from "./context";
import type { NoteRow, ReplyRow } from "./data";
import type { MentionedLocal, MentionedRemote } from "./mentions";
import { Picture } from "./picture";
import { parseDims } from "../uploads/image-dims";
import { replyNumber } from "../../lib/ids";

const instant = (ms: number) => Temporal.Instant.fromEpochMilliseconds(ms);

/** The relation of the Link tag that carries a note's x-label (docs/decisions/026-xlabel-federated.md). */
export const XLABEL_REL = "urn:notex:xlabel";
/** The label every app post gets: it says nothing, so it shows nothing elsewhere. */
const PLAIN_LABEL = "note";
/** The visible line the x-label adds atop a note's text elsewhere (receive.ts takes it off again). */
export const labelLine = (label: string) => (label && label !== PLAIN_LABEL ? `<p>[${escapeHtml(label)}]</p>` : "");

const absolutize = (html: string, origin: URL) => absoluteLinks(html, origin.origin);

export const noteUri = (ctx: Context<FedData>, id: number) => ctx.getObjectUri(Note, { id: String(id) });
/** Replies share the Note route (Fedify keeps one object route per class): /ap/notes/r{number}. */
export const replyUri = (ctx: Context<FedData>, id: number) => ctx.getObjectUri(Note, { id: `r${replyNumber(id)}` });

/**
 * A plain renote's Announce, named by who, what and the renote's own row ({note}.{row}), so a
 * renote made again after an undo goes out with a new id (servers drop an id they have seen).
 * Without the row: the name Announces had before, still answered.
 */
export const announceUri = (ctx: Context<FedData>, uid: number, noteId: number, rowId?: number) =>
  ctx.getObjectUri(Announce, { uid: String(uid), note: rowId ? `${noteId}.${rowId}` : String(noteId) });

/**
 * A stored picture's type, from its key's extension (uploads keep one of these, and R2 serves the
 * object with the same type). Mastodon downloads only attachments whose type it supports, so a
 * wildcard like image/* made every NoteX picture an "unavailable" link there.
 */
const IMAGE_TYPES: Record<string, string> = {
  gif: "image/gif",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  avif: "image/avif",
};
export const imageTypeOf = (src: string) => IMAGE_TYPES[/\.([a-z0-9]+)(?:[?#]|$)/i.exec(src)?.[1]?.toLowerCase() ?? ""];

function attachments(row: NoteRow, origin: URL) {
  const alts: string[] = (() => {
    try {
      return JSON.parse(row.alts) as string[];
    } catch {
      return [];
    }
  })();
  const imgs = row.imgs ? row.imgs.split(";").filter(Boolean) : [];
  const dims = parseDims(row.dims);
  // Each picture's size and blurhash where known: other servers reserve its box and draw its blur.
  const out: (Document | Link)[] = imgs.map(
    (src, i) =>
      new Picture({
        url: new URL(src, origin),
        mediaType: imageTypeOf(src) ?? null,
        name: alts[i] || null,
        width: dims[i]?.width ?? null,
        height: dims[i]?.height ?? null,
        blurhash: dims[i]?.blurhash,
      }),
  );
  if (row.video) out.push(new Link({ href: new URL(row.video, origin), mediaType: "text/html" }));
  return out;
}

/** Who a note or reply mentions (mentions.ts mentionedPeople). */
export interface Mentioned {
  remotes: MentionedRemote[];
  locals: MentionedLocal[];
}
const NOBODY: Mentioned = { remotes: [], locals: [] };

/** A Mention tag per person the text links, here or elsewhere (as Mastodon names them: @name@host). */
const mentionTags = (ctx: Context<FedData>, people: Mentioned) => [
  ...people.remotes.map((p) => new Mention({ href: new URL(p.uri), name: `@${p.username}` })),
  ...people.locals.map(
    (p) =>
      new Mention({
        href: ctx.getActorUri(String(p.id)),
        name: `@${p.username}@${new URL(ctx.canonicalOrigin).host}`,
      }),
  ),
];

/** The mentioned people's actor URIs, for `cc`. */
const mentionedUris = (ctx: Context<FedData>, people: Mentioned) => [
  ...people.remotes.map((p) => new URL(p.uri)),
  ...people.locals.map((p) => ctx.getActorUri(String(p.id))),
];

/** A note (kind 0) or quote (kind 2) as a Note; null for a plain renote (that is an Announce). */
export function toNote(ctx: Context<FedData>, row: NoteRow, mentions: Mentioned = NOBODY): Note | null {
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
    content: labelLine(row.label) + absolutize(row.content, origin),
    published: instant(row.created_at),
    updated: row.updated_at ? instant(row.updated_at) : null,
    to: PUBLIC_COLLECTION,
    ccs: [ctx.getFollowersUri(String(row.user_id)), ...mentionedUris(ctx, mentions)],
    attachments: attachments(row, origin),
    tags: [
      ...mentionTags(ctx, mentions),
      ...tags.map((t) => new Hashtag({ name: `#${t}`, href: new URL(`/tag/${encodeURIComponent(t)}`, origin) })),
      ...(row.label
        ? [
            new Link({
              rel: XLABEL_REL,
              name: row.label,
              href: new URL(`/xlabel/${encodeURIComponent(row.label)}`, origin),
            }),
          ]
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
    id: announceUri(ctx, row.user_id, row.renote_id, row.id),
    actor: ctx.getActorUri(String(row.user_id)),
    object: row.renote_uri ? new URL(row.renote_uri) : noteUri(ctx, row.renote_id),
    published: instant(row.created_at),
    to: PUBLIC_COLLECTION,
    cc: ctx.getFollowersUri(String(row.user_id)),
  });
}

/** A reply as a Note in reply to its parent (the parent's own URI when it came from elsewhere). */
export function toReplyNote(ctx: Context<FedData>, row: ReplyRow, mentions: Mentioned = NOBODY): Note {
  const origin = new URL(ctx.canonicalOrigin);
  const parent = row.parent_uri
    ? new URL(row.parent_uri)
    : row.parent_reply_id === null
      ? noteUri(ctx, row.note_id)
      : replyUri(ctx, row.parent_reply_id);
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
      ...mentionedUris(ctx, mentions).filter((u) => u.href !== row.parent_author_uri),
    ],
    tags: mentionTags(ctx, mentions),
  });
}

/** A stored remote person as Fedify's recipient (their inbox, and their server's shared one). */
export const recipientOf = (r: { uri: string; inbox: string; shared_inbox: string | null }): Recipient => ({
  id: new URL(r.uri),
  inboxId: new URL(r.inbox),
  endpoints: r.shared_inbox ? { sharedInbox: new URL(r.shared_inbox) } : null,
});
