// A remote post's pictures: its image attachments (Document or Image with an image type, as
// Mastodon, Misskey and NoteX send them) become the note's images, shown through this worker's
// proxy (media.ts) with their alt text (the attachment's `name`). Other attachments (video,
// audio, links) are not kept.
import type { Context } from "@fedify/fedify";
import { Document, Image, Link, type Note } from "@fedify/vocab";
import { MAX_ALT, MAX_IMAGES } from "../notes/notes.constants";
import type { FedData } from "./context";
import { proxiedImage } from "./media";

const IMAGE_FILE = /\.(png|jpe?g|gif|webp|avif)(\?|$)/i;

/** The note's images as NoteX stores them: `imgs` (proxy paths joined by ";") and `alts` (JSON). */
export async function remoteImages(ctx: Context<FedData>, note: Note): Promise<{ imgs: string; alts: string }> {
  const imgs: string[] = [];
  const alts: string[] = [];
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
  }
  return { imgs: imgs.join(";"), alts: JSON.stringify(alts) };
}
