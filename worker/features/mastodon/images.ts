// An image an app sends in a multipart body (media, avatar, header), stored in R2 the way the web's
// uploads are: a slot reserved by the uploads service (its size rule per purpose, its key, its row),
// then the bytes written to that key and the slot marked uploaded.
import { and, eq, isNull } from "drizzle-orm";
import { uploads } from "../../db/schema/notes";
import { AppError } from "../../lib/errors";
import { createUploads, MAX_BYTES, type UploadPurpose } from "../uploads/uploads.links";
import { originOf } from "./accounts.routes";
import type { MastoContext } from "./masto.http";

/** The image types NoteX keeps (spec 5), by the type the part declares. */
const TYPES: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/gif": "gif",
  "image/webp": "webp",
};

const unprocessable = (message: string) => new AppError(422, "invalid_input", `Validation failed: ${message}`);

/** `file` as an image NoteX keeps for `purpose` (type and size), or the 4xx that says why not. */
export function checkImage(field: string, file: unknown, purpose: UploadPurpose): File {
  if (!(file instanceof File)) throw unprocessable(`${field} must be a file (multipart/form-data)`);
  if (!TYPES[file.type]) throw unprocessable(`${field}: only JPEG, PNG, GIF and WebP images are supported`);
  if (file.size === 0 || file.size > MAX_BYTES[purpose])
    throw new AppError(
      413,
      "too_large",
      `Validation failed: ${field}: the image is empty or over ${MAX_BYTES[purpose] / 1024 / 1024} MB`,
    );
  return file;
}

/**
 * Stores `file` for the person under a new slot for `purpose`, answering the slot's key and URL.
 * `loose`: a note's image held until a status takes it (the cleanup cron removes it otherwise).
 */
export async function storeImage(
  c: MastoContext,
  uid: number,
  field: string,
  raw: unknown,
  purpose: UploadPurpose,
  opts: { loose?: boolean; alt?: string | null } = {},
) {
  const file = checkImage(field, raw, purpose);
  const ext = TYPES[file.type];
  const [slot] = await createUploads(
    c.env,
    c.var.db,
    uid,
    purpose,
    [{ file_ext: ext, file_size: file.size }],
    originOf(c),
    opts.loose ?? false,
  );
  await c.env.IMAGES.put(slot.key, await file.arrayBuffer(), {
    httpMetadata: { contentType: file.type },
    customMetadata: opts.alt ? { alt: opts.alt } : {},
  });
  await c.var.db
    .update(uploads)
    .set({ uploadedAt: Date.now() })
    .where(and(eq(uploads.key, slot.key), isNull(uploads.uploadedAt)));
  return slot;
}
