// An image an app sends in a multipart body (media, avatar, header), stored in R2 the way the web's
// uploads are: a slot reserved by the uploads service (its size rule per purpose, its key, its row),
// then the bytes written to that key and the slot marked uploaded. What the file is comes from its
// bytes, never from the type the part declares (image-bytes.ts).
import { and, eq, isNull } from "drizzle-orm";
import { uploads } from "../../db/schema/notes";
import { AppError } from "../../lib/errors";
import { createUploads, MAX_BYTES, type UploadPurpose } from "../uploads/uploads.links";
import { type Sniffed, sniffImage } from "../uploads/image-bytes";
import { type MastoContext, originOf } from "./masto.http";

const unprocessable = (message: string) => new AppError(422, "invalid_input", `Validation failed: ${message}`);

export interface CheckedImage extends Sniffed {
  bytes: Uint8Array;
}

/** `file` as an image NoteX keeps for `purpose` (type by its bytes, size), or the 4xx that says why not. */
export async function checkImage(field: string, file: unknown, purpose: UploadPurpose): Promise<CheckedImage> {
  if (!(file instanceof File)) throw unprocessable(`${field} must be a file (multipart/form-data)`);
  if (file.size === 0 || file.size > MAX_BYTES[purpose])
    throw new AppError(
      413,
      "too_large",
      `Validation failed: ${field}: the image is empty or over ${MAX_BYTES[purpose] / 1024 / 1024} MB`,
    );
  const bytes = new Uint8Array(await file.arrayBuffer());
  const sniffed = sniffImage(bytes);
  if (!sniffed.ok) throw unprocessable(`${field}: ${sniffed.reason}`);
  return { ...sniffed.image, bytes };
}

/** The R2 metadata an image keeps beside its bytes: its alt text and its size in pixels. */
export const imageMetadata = (image: { width: number; height: number }, alt?: string | null) => ({
  ...(alt ? { alt } : {}),
  w: String(image.width),
  h: String(image.height),
});

/**
 * Stores `file` for the person under a new slot for `purpose`, answering the slot's key and URL
 * and the image's size. `loose`: a note's image held until a status takes it (the cleanup cron
 * removes it otherwise).
 */
export async function storeImage(
  c: MastoContext,
  uid: number,
  field: string,
  raw: unknown,
  purpose: UploadPurpose,
  opts: { loose?: boolean; alt?: string | null } = {},
) {
  const image = await checkImage(field, raw, purpose);
  const [slot] = await createUploads(
    c.env,
    c.var.db,
    uid,
    purpose,
    [{ file_ext: image.ext, file_size: image.bytes.byteLength, width: image.width, height: image.height }],
    originOf(c),
    opts.loose ?? false,
  );
  await c.env.IMAGES.put(slot.key, image.bytes, {
    httpMetadata: { contentType: image.type },
    customMetadata: imageMetadata(image, opts.alt),
  });
  await c.var.db
    .update(uploads)
    .set({ uploadedAt: Date.now() })
    .where(and(eq(uploads.key, slot.key), isNull(uploads.uploadedAt)));
  return { ...slot, width: image.width, height: image.height };
}
