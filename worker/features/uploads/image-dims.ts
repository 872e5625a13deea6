// A picture's natural size and blurhash, as a note keeps them beside its images (notes.dims, in
// imgs' order): pages reserve each picture's box and paint its blur before it loads, the federated
// Document and Mastodon's media `meta` say them. Sizes come from the image's header; a blurhash
// comes from a decode, which the browser makes at upload (the worker reads headers, never pixels).
import { isBlurhashValid } from "blurhash";

export interface ImageDims {
  width: number;
  height: number;
  /** null where none was made (an app's upload, a peer that sent none). */
  blurhash: string | null;
}

/** Pixels a side may claim: a header or peer saying more is not believed. */
const MAX_SIDE = 65535;
/** The longest blurhash (9×9 components); Mastodon's are 4×3. */
const MAX_HASH = 6 + 2 * (9 * 9 - 1);

const side = (v: unknown) =>
  Number.isSafeInteger(v) && (v as number) > 0 && (v as number) <= MAX_SIDE ? (v as number) : 0;

/** `hash` when it is a well-formed blurhash, else null (a browser or a peer may send anything). */
export function checkedBlurhash(hash: unknown): string | null {
  if (typeof hash !== "string" || hash.length < 6 || hash.length > MAX_HASH) return null;
  return isBlurhashValid(hash).result ? hash : null;
}

/** A size and hash as given (numbers or numeric strings), or null when the size is not a real one. */
export function imageDims(width: unknown, height: unknown, blurhash?: unknown): ImageDims | null {
  const w = side(typeof width === "string" ? Number(width) : width);
  const h = side(typeof height === "string" ? Number(height) : height);
  return w && h ? { width: w, height: h, blurhash: checkedBlurhash(blurhash) } : null;
}

/** The stored form: [width, height, blurhash or ""] per image, null where unknown. */
export const dimsJson = (list: (ImageDims | null)[]) =>
  JSON.stringify(list.map((d) => (d ? [d.width, d.height, d.blurhash ?? ""] : null)));

/** The stored list read back (anything unreadable counts as unknown). */
export function parseDims(raw: string | null | undefined): (ImageDims | null)[] {
  try {
    const v = JSON.parse(raw || "[]");
    return Array.isArray(v) ? v.map((d) => (Array.isArray(d) ? imageDims(d[0], d[1], d[2]) : null)) : [];
  } catch {
    return [];
  }
}
