// What an uploaded file is, from its bytes: apps and scripts send parts typed
// application/octet-stream or not typed at all, and a declared type can be wrong. Only the header
// is read (image-meta: magic numbers and each format's size fields); nothing is decoded.
import { encode } from "blurhash";
import { imageMeta } from "image-meta";

/** The image types NoteX keeps (spec 5): image-meta's name → the stored extension and MIME type. */
const KEPT: Record<string, { ext: string; type: string }> = {
  jpg: { ext: "jpg", type: "image/jpeg" },
  png: { ext: "png", type: "image/png" },
  gif: { ext: "gif", type: "image/gif" },
  webp: { ext: "webp", type: "image/webp" },
};

export interface Sniffed {
  ext: string;
  type: string;
  width: number;
  height: number;
}

export type SniffResult = { ok: true; image: Sniffed } | { ok: false; reason: string };

const KEPT_WORDS = "only JPEG, PNG, GIF and WebP images are supported";

/** An ISO media file (MP4, MOV, HEIF): an `ftyp` box first. */
const isoMedia = (b: Uint8Array) => b.length >= 12 && String.fromCharCode(...b.subarray(4, 8)) === "ftyp";

/** image-meta's reading of the header, or null for bytes that are no image it knows (it throws). */
function headerOf(bytes: Uint8Array) {
  try {
    return imageMeta(bytes);
  } catch {
    return null;
  }
}

/** The kept image `bytes` are, with its size as shown (EXIF rotation applied), or why it is refused. */
export function sniffImage(bytes: Uint8Array): SniffResult {
  const meta = headerOf(bytes);
  const kept = meta?.type ? KEPT[meta.type] : undefined;
  if (meta && kept && meta.width > 0 && meta.height > 0) {
    const turned = (meta.orientation ?? 1) >= 5;
    const [width, height] = turned ? [meta.height, meta.width] : [meta.width, meta.height];
    return { ok: true, image: { ...kept, width, height } };
  }
  if (meta?.type) return { ok: false, reason: `${meta.type.toUpperCase()} files are not kept: ${KEPT_WORDS}` };
  if (isoMedia(bytes))
    return { ok: false, reason: `NoteX keeps no video files (a note's video is a YouTube link): ${KEPT_WORDS}` };
  return { ok: false, reason: KEPT_WORDS };
}

/** Mastodon's size words for one image: NoteX serves it whole, so the small one is the same. */
export function sizeMeta(width: number, height: number) {
  const one = { width, height, size: `${width}x${height}`, aspect: Math.round((width / height) * 1e4) / 1e4 };
  return { original: one, small: one };
}

let grey: string | undefined;
/**
 * The blurhash every NoteX image answers: a plain mid-grey. A real one needs the decoded pixels,
 * and decoding a JPEG or PNG in the Worker costs far more CPU than a request should (docs/decisions/025-mastodon-media-meta.md).
 */
export function placeholderHash() {
  grey ??= encode(new Uint8ClampedArray(4 * 4 * 4).fill(160), 4, 4, 1, 1);
  return grey;
}
