// A remote post's pictures: its image attachments (Document or Image with an image type, as
// Mastodon, Misskey and NoteX send them) become the note's images, shown through this worker's
// proxy (media.ts) with their alt text (the attachment's `name`). Other attachments (video,
// audio, links) are not kept. Each picture's size and blurhash, where the peer sends them (as
// Mastodon does), are kept too, so pages reserve its box and paint its blur before it loads.
import type { Context } from "@fedify/fedify";
import { type Create, Document, Image, Link, Note, type Update } from "@fedify/vocab";
import { MAX_ALT, MAX_IMAGES } from "../notes/notes.constants";
import { dimsJson, type ImageDims, imageDims } from "../uploads/image-dims";
import type { FedData } from "./context";
import { proxiedImage } from "./media";

const IMAGE_FILE = /\.(png|jpe?g|gif|webp|avif)(\?|$)/i;

const hasBlurhash = (attachment: unknown) =>
  [attachment ?? []].flat().some((a) => !!a && typeof a === "object" && "blurhash" in a);

/**
 * The Note a Create or Update carries, read again from the JSON it came in when a picture in it
 * has a blurhash: Fedify keeps an object's own JSON only for the document it parsed, not for the
 * objects inside it, so the embedded Note would have lost it. Null: take the activity's object as is.
 */
export async function sentNote(ctx: Context<FedData>, activity: Create | Update): Promise<Note | null> {
  const json = (await activity.toJsonLd()) as { "@context"?: unknown; object?: unknown };
  const object = json?.object as { attachment?: unknown } | undefined;
  if (!object || typeof object !== "object" || Array.isArray(object) || !hasBlurhash(object.attachment)) return null;
  try {
    return await Note.fromJsonLd(
      { "@context": json["@context"], ...object },
      { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader },
    );
  } catch {
    // Not a Note (or not one Fedify reads): the activity's own object stands.
    return null;
  }
}

/**
 * Each attachment's blurhash by its URL, read off the note's JSON as it came: Fedify's vocabulary has
 * no blurhash (Mastodon's `toot:blurhash`), so its Document drops it.
 */
async function blurhashes(note: Note): Promise<Map<string, unknown>> {
  const json = (await note.toJsonLd()) as { attachment?: unknown };
  const found = new Map<string, unknown>();
  for (const a of [json?.attachment ?? []].flat()) {
    if (!a || typeof a !== "object") continue;
    const { url, blurhash } = a as { url?: unknown; blurhash?: unknown };
    const href = typeof url === "string" ? url : (url as { href?: unknown } | null)?.href;
    if (typeof href === "string") found.set(href, blurhash);
  }
  return found;
}

/**
 * The note's images as NoteX stores them: `imgs` (proxy paths joined by ";"), `alts` and `dims`
 * (JSON lists in the same order).
 */
export async function remoteImages(
  ctx: Context<FedData>,
  note: Note,
): Promise<{ imgs: string; alts: string; dims: string }> {
  const imgs: string[] = [];
  const alts: string[] = [];
  const dims: (ImageDims | null)[] = [];
  const hashes = await blurhashes(note);
  for await (const a of note.getAttachments(ctx)) {
    if (imgs.length >= MAX_IMAGES) break;
    if (!(a instanceof Document || a instanceof Image)) continue;
    const url = a.url instanceof URL ? a.url : a.url instanceof Link ? a.url.href : null;
    const type = a.mediaType ?? "";
    if (!url || !(type.startsWith("image/") || (!type && IMAGE_FILE.test(url.pathname)))) continue;
    const src = proxiedImage(ctx.data.env, url);
    if (!src) continue;
    imgs.push(src);
    alts.push(
      (a.name?.toString() ?? "")
        .replace(/[\p{Cc}\s]+/gu, " ")
        .trim()
        .slice(0, MAX_ALT),
    );
    dims.push(imageDims(a.width, a.height, hashes.get(url.href)));
  }
  return { imgs: imgs.join(";"), alts: JSON.stringify(alts), dims: dimsJson(dims) };
}
