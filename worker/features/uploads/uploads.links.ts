// Contract for signed image uploads (the uploads feature implements it; notes, users and folders use it).
import type { DB, Env } from "../../env";

export type UploadPurpose = "note" | "avatar" | "cover" | "logo";

export interface UploadRequest {
  /** gif, jpg, png or webp; anything else is stored as jpg (spec 5). */
  file_ext: string;
  /** Bytes the browser will send; over the cap → 4xx. */
  file_size: number;
}

export interface UploadSlot {
  key: string;
  /** Accepts one PUT of the raw image within 5 minutes (locally a signed /v1/uploads/... URL). */
  put_link: string;
  /** Where the image is served from once uploaded (a path on this worker, e.g. /img/<key>). */
  file_url: string;
}

/** Reserves upload slots owned by `userId` (rows in `uploads`), answering their signed PUT links. */
export async function createUploads(
  _env: Env,
  _db: DB,
  _userId: number,
  _purpose: UploadPurpose,
  _files: UploadRequest[],
  _origin: string,
): Promise<UploadSlot[]> {
  throw new Error("uploads not implemented yet");
}

/** Whether every key is the user's own and was uploaded (so a note may reference it). */
export async function ownedUploaded(_db: DB, _userId: number, _keys: string[]): Promise<boolean> {
  return false;
}

/** Removes stored images (R2 objects and upload rows) — e.g. when a note is deleted. */
export async function deleteImages(_env: Env, _db: DB, _userId: number, _keys: string[]): Promise<void> {}
