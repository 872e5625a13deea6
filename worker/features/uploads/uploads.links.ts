// Signed image uploads: notes, users and folders reserve slots here; the browser PUTs the raw image
// to the returned link (locally this worker's own HMAC-signed route, in production a presigned R2
// URL), and the worker serves stored images from /img/<key>.
import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { AwsClient } from "aws4fetch";
import { and, eq, inArray, isNotNull, isNull, type SQL } from "drizzle-orm";
import { uploads } from "../../db/schema/notes";
import type { DB, Env } from "../../env";
import { AppError } from "../../lib/errors";
import { timingSafeEqual } from "../../lib/password";
import { checkedBlurhash, type ImageDims, imageDims } from "./image-dims";

export type UploadPurpose = "note" | "avatar" | "cover" | "logo";

export interface UploadRequest {
  /** gif, jpg, png or webp; anything else is stored as jpg (spec 5). */
  file_ext: string;
  /** Bytes the browser will send; over the cap → 4xx. */
  file_size: number;
  /** The picture's size and blurhash as the browser decoded it (the header's size wins once the bytes come). */
  width?: number;
  height?: number;
  blurhash?: string;
}

export interface UploadSlot {
  key: string;
  /** Accepts one PUT of the raw image within 5 minutes (locally a signed /v1/uploads/... URL). */
  put_link: string;
  /** Where the image is served from once uploaded (a path on this worker, e.g. /img/<key>). */
  file_url: string;
}

export const UPLOAD_TTL_S = 5 * 60;
export const MAX_BYTES: Record<UploadPurpose, number> = {
  note: 10 * 1024 * 1024,
  avatar: 5 * 1024 * 1024,
  cover: 5 * 1024 * 1024,
  logo: 5 * 1024 * 1024,
};
const EXTS = new Set(["gif", "jpg", "png", "webp"]);
const enc = new TextEncoder();

/** What the local PUT link signs: the method, the key, the expiry and the size cap (HMAC-SHA256, hex). */
export const signature = (env: Env, key: string, exp: number, max: number) =>
  encodeHexLowerCase(hmac(SHA256, enc.encode(env.UPLOAD_SECRET), enc.encode(`PUT\n${key}\n${exp}\n${max}`)));

export function verifySignature(env: Env, key: string, exp: number, max: number, sig: string): boolean {
  return timingSafeEqual(enc.encode(signature(env, key, exp, max)), enc.encode(sig));
}

/** A presigned R2 PUT of `key` (UPLOAD_MODE "s3"), valid for `ttl` seconds. */
export async function presignS3(env: Env, key: string, contentType: string, ttl = UPLOAD_TTL_S): Promise<string> {
  if (!env.R2_S3_ENDPOINT || !env.R2_ACCESS_KEY_ID || !env.R2_SECRET_ACCESS_KEY)
    throw new Error("R2 S3 credentials are not configured");
  const client = new AwsClient({
    accessKeyId: env.R2_ACCESS_KEY_ID,
    secretAccessKey: env.R2_SECRET_ACCESS_KEY,
    service: "s3",
    region: "auto",
  });
  const url = new URL(`${env.R2_S3_ENDPOINT.replace(/\/$/, "")}/${key}`);
  url.searchParams.set("X-Amz-Expires", String(ttl));
  const signed = await client.sign(new Request(url, { method: "PUT", headers: { "content-type": contentType } }), {
    aws: { signQuery: true },
  });
  return signed.url;
}

/**
 * Reserves upload slots owned by `userId` (rows in `uploads`), answering their signed PUT links.
 * `loose`: reserved ahead of the note that will take them (attachUploads), so removed if none does.
 */
export async function createUploads(
  env: Env,
  db: DB,
  userId: number,
  purpose: UploadPurpose,
  files: UploadRequest[],
  origin: string,
  loose = false,
): Promise<UploadSlot[]> {
  if (!files.length) return [];
  const max = MAX_BYTES[purpose];
  const now = Date.now();
  const exp = Math.floor(now / 1000) + UPLOAD_TTL_S;
  const slots: (UploadSlot & { contentType: string; dims: ImageDims | null; blurhash: string | null })[] = [];
  for (const f of files) {
    if (!(f.file_size > 0) || f.file_size > max) {
      throw new AppError(422, "invalid_input", `Image is too large (at most ${max / 1024 / 1024} MB).`, {
        uploads: "Image is too large.",
      });
    }
    const raw = String(f.file_ext ?? "")
      .toLowerCase()
      .replace(/^\./, "");
    const ext = raw === "jpeg" ? "jpg" : EXTS.has(raw) ? raw : "jpg";
    const rand = encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(12)));
    const key = `u/${userId}/${purpose}/${rand}.${ext}`;
    const contentType = `image/${ext === "jpg" ? "jpeg" : ext}`;
    const put_link =
      env.UPLOAD_MODE === "s3"
        ? await presignS3(env, key, contentType)
        : `${origin}/v1/uploads/${key}?exp=${exp}&max=${max}&sig=${signature(env, key, exp, max)}`;
    slots.push({
      key,
      put_link,
      file_url: `/img/${key}`,
      contentType,
      dims: imageDims(f.width, f.height),
      blurhash: checkedBlurhash(f.blurhash),
    });
  }
  await db.insert(uploads).values(
    slots.map((s) => ({
      key: s.key,
      userId,
      purpose,
      contentType: s.contentType,
      maxSize: max,
      expiresAt: exp * 1000,
      unattachedSince: loose ? now : null,
      width: s.dims?.width ?? null,
      height: s.dims?.height ?? null,
      blurhash: s.blurhash,
    })),
  );
  return slots.map(({ key, put_link, file_url }) => ({ key, put_link, file_url }));
}

/**
 * Whether every key is the user's own and was uploaded (so a note may reference it): each key's
 * picture size and blurhash where known, or null when one is not. With presigned R2 URLs
 * (UPLOAD_MODE=s3) the PUT never reaches the worker: a slot whose object is in the bucket is
 * completed here (and by the cleanup cron), once.
 */
export async function ownedUploaded(
  env: Env,
  db: DB,
  userId: number,
  keys: string[],
): Promise<Map<string, ImageDims | null> | null> {
  const unique = [...new Set(keys)];
  if (!unique.length) return new Map();
  const rows = await db
    .select({
      key: uploads.key,
      uploadedAt: uploads.uploadedAt,
      width: uploads.width,
      height: uploads.height,
      blurhash: uploads.blurhash,
    })
    .from(uploads)
    .where(and(inArray(uploads.key, unique), eq(uploads.userId, userId)));
  if (rows.length !== unique.length) return null;
  const dims = new Map(rows.map((r) => [r.key, imageDims(r.width, r.height, r.blurhash)]));
  const pending = rows.filter((r) => r.uploadedAt === null).map((r) => r.key);
  if (!pending.length) return dims;
  if (env.UPLOAD_MODE !== "s3") return null;
  const heads = await Promise.all(pending.map((k) => env.IMAGES.head(k)));
  if (heads.some((h) => !h)) return null;
  await db
    .update(uploads)
    .set({ uploadedAt: Date.now() })
    .where(and(inArray(uploads.key, pending), isNull(uploads.uploadedAt)));
  return dims;
}

/**
 * A note took these slots (the user's own): the cleanup cron leaves them be from now on. `when`: the
 * note's own guard, when its insert in the same batch may be refused.
 */
export const attachUploads = (db: DB, userId: number, keys: string[], when?: SQL) =>
  db
    .update(uploads)
    .set({ unattachedSince: null })
    .where(and(inArray(uploads.key, keys), eq(uploads.userId, userId), isNotNull(uploads.unattachedSince), when));

/** Removes stored images (R2 objects and upload rows) — only the user's own keys. */
export async function deleteImages(env: Env, db: DB, userId: number, keys: string[]): Promise<void> {
  const own = keys.filter((k) => k.startsWith(`u/${userId}/`));
  if (!own.length) return;
  await env.IMAGES.delete(own);
  await db.delete(uploads).where(and(inArray(uploads.key, own), eq(uploads.userId, userId)));
}
