// A Mastodon archive ("Request your archive") as NoteX would keep it. Mastodon writes its outbox
// as an ActivityStreams OrderedCollection of the person's activities (Create of a Note, Announce
// of someone's post), each attachment's url rewritten to its path inside the zip
// (media_attachments/files/…), and actor.json with avatar/header named by their file in the zip.
// What NoteX cannot show as the person showed it is left out and listed with the reason.
import { htmlToText, sanitizeHtml } from "../../../lib/sanitize";
import { MAX_ALT, MAX_IMAGES, MAX_TAGS, MAX_TEXT } from "../../notes/notes.constants";
import { extractTags, tagError } from "../../notes/notes.schema";
import { MAX_REPLY } from "../../replies/replies.service";

const PUBLIC = new Set(["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]);
const IMAGE_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

export interface ArchiveMedia {
  /** The entry's path in the zip. */
  path: string;
  alt: string;
}

export interface ArchivePost {
  /** The post's page where it was first published (its url, else its id): kept on the note. */
  url: string;
  at: number;
  content: string;
  txt: string;
  tags: string[];
  /** A reply within the person's own thread: the url of the post it answers. */
  parent: string | null;
  media: ArchiveMedia[];
}

export interface LeftOut {
  url: string;
  reason: string;
  /** Set when the post itself is imported and only a part of it (an image, a video) stays behind. */
  partial?: true;
}

export interface ArchiveProfile {
  name: string;
  bio: string;
  avatar: string | null;
  header: string | null;
}

export interface ArchivePlan {
  posts: ArchivePost[];
  /** Posts not imported, and parts of imported ones (media) left behind, each with why. */
  left: LeftOut[];
  counts: { posts: number; replies: number; media: number; skipped: number };
  profile: ArchiveProfile;
}

type Json = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : "");
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v == null ? [] : [v]);
const idOf = (v: unknown) => (typeof v === "string" ? v : str((v as Json | null)?.id));
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Who could read a post: Mastodon says it with the public collection and the followers in to/cc. */
function visibility(o: Json, followers: string): "public" | "unlisted" | "private" | "direct" {
  const to = list(o.to).map(idOf);
  const cc = list(o.cc).map(idOf);
  if (to.some((a) => PUBLIC.has(a))) return "public";
  if (cc.some((a) => PUBLIC.has(a))) return "unlisted";
  return followers && [...to, ...cc].includes(followers) ? "private" : "direct";
}

/** A note's HTML and text: the one allow-list, a content warning kept as the first line. */
function textOf(o: Json): { content: string; txt: string } {
  const warning = str(o.summary).trim();
  const html = sanitizeHtml(`${warning ? `<p>CW: ${escapeHtml(warning)}</p>` : ""}${str(o.content)}`);
  return { content: html, txt: htmlToText(html).trim() };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot" }[c]};`);

/** The hashtags of a post, as a note written here would have them (each valid, at most MAX_TAGS). */
const tagsOf = (txt: string) =>
  extractTags(txt)
    .filter((t) => !tagError([t]))
    .map((t) => t.toLowerCase())
    .filter((t, i, all) => all.indexOf(t) === i)
    .slice(0, MAX_TAGS);

/**
 * The posts of an outbox in the order they were written (a thread's first post before its
 * replies), each public or unlisted one made ready; everything else is listed with why.
 * `entries`: the zip's paths, so media missing from the archive are found before any write.
 */
export function planArchive(outbox: Json, actor: Json, entries: Set<string>): ArchivePlan {
  const me = str(actor.id);
  const followers = str(actor.followers);
  const left: LeftOut[] = [];
  const items = list(outbox.orderedItems).filter(isObject);
  const created = items
    .filter((a) => {
      if (a.type === "Create" && isObject(a.object)) return true;
      left.push({
        url: idOf(a.object) || idOf(a),
        reason: a.type === "Announce" ? "a boost of another post" : "not a post",
      });
      return false;
    })
    .map((a) => a.object as Json)
    .sort((a, b) => Date.parse(str(a.published)) - Date.parse(str(b.published)));
  // Object ids → the urls kept on notes: a reply names its parent by the parent's id.
  const kept = new Map<string, string>();
  const posts: ArchivePost[] = [];
  let media = 0;
  for (const o of created) {
    const url = str(o.url) || str(o.id);
    const skip = (reason: string) => left.push({ url, reason });
    const leave = (reason: string) => left.push({ url, reason, partial: true });
    const at = Date.parse(str(o.published));
    if (!url || !/^https?:\/\//.test(url)) skip("no address of its own");
    else if (!Number.isFinite(at)) skip("no date");
    else if (me && idOf(o.attributedTo) && idOf(o.attributedTo) !== me) skip("written by someone else");
    else {
      const seen = visibility(o, followers);
      const reply = str(o.inReplyTo);
      const parent = reply ? (kept.get(reply) ?? null) : null;
      const { content, txt } = textOf(o);
      const images = list(o.attachment).filter(isObject);
      const usable = images.filter((m) => IMAGE_TYPES.has(str(m.mediaType)) && entries.has(str(m.url)));
      if (seen === "private") skip("followers-only");
      else if (seen === "direct") skip("a direct message");
      else if (reply && !parent) skip("a reply to someone else’s post, or to one of yours not imported");
      else if (!txt && !(usable.length && !parent)) skip("nothing NoteX can show (no text, no image)");
      else if (parent && [...txt].length > MAX_REPLY) skip(`a reply longer than ${MAX_REPLY} characters`);
      else if ([...txt].length > MAX_TEXT) skip(`longer than ${MAX_TEXT} characters`);
      else {
        for (const m of images.filter((m) => !usable.includes(m)))
          leave(
            !IMAGE_TYPES.has(str(m.mediaType))
              ? `${str(m.mediaType) || "a file"} left out: only images are imported`
              : `${str(m.url).split("/").pop()} is missing from the archive`,
          );
        const mine = parent ? [] : usable.slice(0, MAX_IMAGES);
        if (parent && usable.length) leave(`${usable.length} image(s) of a reply left out: replies here carry text`);
        if (usable.length > mine.length && !parent) leave(`more than ${MAX_IMAGES} images: the rest left out`);
        media += mine.length;
        kept.set(str(o.id) || url, url);
        posts.push({
          url,
          at,
          content,
          txt,
          tags: tagsOf(txt),
          parent,
          media: mine.map((m) => ({ path: str(m.url), alt: str(m.name).slice(0, MAX_ALT) })),
        });
      }
    }
  }
  const replies = posts.filter((p) => p.parent).length;
  const skipped = items.length - posts.length;
  return {
    posts,
    left,
    counts: { posts: posts.length - replies, replies, media, skipped },
    profile: profileOf(actor, entries),
  };
}

/** The profile the archive carries: the name, the bio with its fields as lines, avatar and header. */
function profileOf(actor: Json, entries: Set<string>): ArchiveProfile {
  const fields = list(actor.attachment)
    .filter((f): f is Json => isObject(f) && f.type === "PropertyValue")
    .map((f) => `${str(f.name)}: ${htmlToText(sanitizeHtml(str(f.value))).trim()}`);
  const bio = [htmlToText(sanitizeHtml(str(actor.summary))).trim(), ...fields].filter(Boolean).join("\n");
  const file = (v: unknown) => {
    const path = str((v as Json | null)?.url);
    return path && entries.has(path) ? path : null;
  };
  return { name: str(actor.name).trim(), bio, avatar: file(actor.icon), header: file(actor.image) };
}
