// Browser side of image uploads (spec 5 Images): scale the longest side to at most 1000 px as JPEG
// quality 0.7 before the PUT (GIFs untouched, animations would be lost), then PUT each file to the
// signed, expiring link the API reserved for it.
import { encode } from "blurhash";
export const MAX_SIDE = 1000;
export const JPEG_QUALITY = 0.7;

const EXT: Record<string, string> = { "image/gif": "gif", "image/png": "png", "image/webp": "webp" };
/** Spec 5: upload extensions gif, jpg, png, webp, default jpg. */
export const uploadExt = (type: string) => EXT[type] ?? "jpg";
/** The content type a PUT may carry; anything else travels as JPEG. */
export const putType = (type: string) => (/^image\/(jpeg|png|gif|webp)$/.test(type) ? type : "image/jpeg");

/** The size an image gets so its longest side is at most `max` (never enlarged). */
export function fitWithin(width: number, height: number, max = MAX_SIDE) {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.round(width * scale), height: Math.round(height * scale), scaled: scale < 1 };
}

/** An image ready to go up: the bytes, and what the browser saw of it (size, blurhash) when it could decode it. */
export interface Prepared {
  blob: Blob;
  width?: number;
  height?: number;
  blurhash?: string;
}

/**
 * The picture's blurhash from a 32-pixel decode (4×3 components, as Mastodon makes them): pages
 * paint it where the picture will be. The worker reads only headers, so the browser makes it.
 */
function blurhashOf(bitmap: ImageBitmap): string | undefined {
  const small = fitWithin(bitmap.width, bitmap.height, 32);
  const canvas = document.createElement("canvas");
  canvas.width = small.width;
  canvas.height = small.height;
  const ctx = canvas.getContext("2d");
  if (!ctx) return undefined;
  ctx.drawImage(bitmap, 0, 0, small.width, small.height);
  return encode(ctx.getImageData(0, 0, small.width, small.height).data, small.width, small.height, 4, 3);
}

export async function scaleImage(file: File): Promise<Prepared> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return { blob: file }; // a format this browser cannot decode (e.g. HEIF) goes up as it is
  }
  const blurhash = blurhashOf(bitmap);
  const size = fitWithin(bitmap.width, bitmap.height);
  // GIFs go up untouched (a redraw would lose the animation).
  if (!size.scaled || file.type === "image/gif") {
    // Read before close(): a closed bitmap says 0 × 0.
    const { width, height } = bitmap;
    bitmap.close();
    return { blob: file, width, height, blurhash };
  }
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  canvas.getContext("2d")?.drawImage(bitmap, 0, 0, size.width, size.height);
  bitmap.close();
  const blob = await new Promise<Blob>((resolve) =>
    canvas.toBlob((b) => resolve(b ?? file), "image/jpeg", JPEG_QUALITY),
  );
  return { blob, width: size.width, height: size.height, blurhash };
}

export interface UploadSlot {
  key: string;
  put_link: string;
}

/** PUTs each blob to its slot; success is status 200 (spec 5). Throws on the first refusal. */
export async function putImages(slots: UploadSlot[], blobs: Blob[]) {
  await Promise.all(
    slots.map(async (slot, i) => {
      const blob = blobs[i];
      if (!blob) return;
      const res = await fetch(slot.put_link, {
        method: "PUT",
        body: blob,
        headers: { "content-type": putType(blob.type) },
        credentials: "same-origin",
      });
      if (res.status !== 200) throw new Error(`upload failed (${res.status})`);
    }),
  );
}
