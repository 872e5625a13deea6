// Archives bigger than a request may carry (Workers take 100 MB): the API signs a PUT of the zip
// straight to R2, as it signs images' (uploads.links.ts: a presigned R2 URL, or locally this
// worker's own HMAC-signed route), and the preview then reads the zip from R2 exactly as it reads
// one sent through the form. The signature, not a session, is the PUT's authority; the key holds
// its owner, so nobody else can preview it.
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv, Env } from "../../../env";
import { AppError } from "../../../lib/errors";
import { me } from "../../../lib/session";
import { presignS3, signature, verifySignature } from "../../uploads/uploads.links";
import { ARCHIVE, newStageId, stageArchive, stagedKey } from "./stage";

/** An hour: a few gigabytes take a while on a slow line. */
const TTL_S = 60 * 60;

/** Bytes an archive may weigh through the form (a request's limit; lowered in tests). */
export const bodyMax = (env: Env) => Number(env.ARCHIVE_BODY_MAX) || ARCHIVE.upload;

const Slot = z.object({
  size: z.number({ error: "size is required" }).int().min(1, "The file is empty."),
});

const tooLarge = () => new AppError(413, "too_large", `The file is too large (at most ${ARCHIVE.stored >> 30} GB).`);

/** POST /uploads {size}: a stage id and a signed PUT link for a zip of that size. */
export async function reserveArchive(c: Context<AppEnv>) {
  const uid = me(c).id;
  const input = Slot.safeParse(await c.req.json().catch(() => null));
  if (!input.success) throw new AppError(422, "invalid_input", input.error.issues[0]?.message ?? "size is required");
  if (input.data.size > ARCHIVE.stored) throw tooLarge();
  const id = newStageId();
  const key = stagedKey(uid, id, "archive.zip");
  const max = input.data.size;
  const exp = Math.floor(Date.now() / 1000) + TTL_S;
  const put_link =
    c.env.UPLOAD_MODE === "s3"
      ? await presignS3(c.env, key, "application/zip", TTL_S)
      : `${new URL(c.req.url).origin}/v1/imports/archive/uploads/${uid}/${id}?exp=${exp}&max=${max}&sig=${signature(c.env, key, exp, max)}`;
  return { id, put_link };
}

const refused = (message: string, status: 400 | 403 | 410 | 413 = 403) =>
  new AppError(status, "upload_refused", message);

/** PUT /uploads/:uid/:id: the local stand-in for the presigned R2 URL (in production R2 takes the PUT itself). */
export async function receiveArchive(c: Context<AppEnv>) {
  const { uid, id } = c.req.param() as { uid: string; id: string };
  const exp = Number(c.req.query("exp"));
  const max = Number(c.req.query("max"));
  if (!/^\d{1,16}$/.test(uid) || !/^[0-9a-f]{24}$/.test(id) || !Number.isSafeInteger(exp) || !Number.isSafeInteger(max))
    throw refused("Upload link is not valid.", 400);
  const key = stagedKey(Number(uid), id, "archive.zip");
  if (!verifySignature(c.env, key, exp, max, c.req.query("sig") ?? "")) throw refused("Upload link is not valid.");
  if (exp * 1000 < Date.now()) throw refused("Upload link has expired.", 410);
  if (Number(c.req.header("content-length") ?? 0) > max) throw refused("The file is larger than announced.", 413);
  const bytes = await c.req.arrayBuffer();
  if (bytes.byteLength > max) throw refused("The file is larger than announced.", 413);
  await c.env.IMAGES.put(key, bytes, { httpMetadata: { contentType: "application/zip" } });
  return { ok: true as const };
}

/** POST /:id/received: the zip that arrived by the link, judged and staged as a form upload is. */
export async function stageReceived(c: Context<AppEnv>) {
  const uid = me(c).id;
  const id = c.req.param("id") ?? "";
  const key = stagedKey(uid, id, "archive.zip");
  const head = /^[0-9a-f]{24}$/.test(id) ? await c.env.IMAGES.head(key) : null;
  if (!head)
    // Someone else's id finds nothing either (the key holds its owner): the same 404.
    throw new AppError(404, "not_found", "The archive has not arrived yet: send it to the upload link first.");
  if (head.size > ARCHIVE.stored) {
    await c.env.IMAGES.delete(key);
    throw tooLarge();
  }
  return stageArchive(c.env, uid, id, head.size);
}
