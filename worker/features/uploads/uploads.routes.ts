import { and, eq, gt, isNull } from "drizzle-orm";
import { createRoute } from "@hono/zod-openapi";
import { Hono } from "hono";
// A malformed escape ("%") is left as is, so the key check refuses it (decodeURIComponent threw: a 500).
import { tryDecodeURIComponent } from "hono/utils/url";
import { uploads as uploadsTable } from "../../db/schema/notes";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { me } from "../../lib/session";
import { jsonBody, readBody, router, signedIn, typed } from "../../lib/validate";
import { sniffImage } from "./image-bytes";
import { createUploads, type UploadSlot, verifySignature } from "./uploads.links";
import { NoteUploads } from "./uploads.schema";

const refused = (message: string, status: 400 | 403 | 409 | 410 | 413 | 415 = 403) =>
  new AppError(status, "upload_refused", message);

/**
 * POST reserves a note's image slots ahead of the note (uploads.schema.ts). PUT is the local
 * stand-in for a presigned R2 URL: one PUT of an image, before expiry, within the size cap, to the
 * key the signature names. The signature, not a session, is the authority.
 */
const reserve = createRoute({
  method: "post",
  path: "/",
  summary: "Reserve a note's image slots: a signed PUT link each",
  ...signedIn(readBody),
  request: { body: jsonBody(NoteUploads) },
  responses: { 201: typed<{ uploads: UploadSlot[] }>("The slots, with their links") },
});

export const uploadRoutes = router()
  .openapi(reserve, async (c) => {
    const { uploads } = c.req.valid("json");
    const slots = await createUploads(c.env, c.var.db, me(c).id, "note", uploads, new URL(c.req.url).origin, true);
    return c.json({ uploads: slots }, 201);
  })
  // The key has slashes in it (a path parameter has none), so this route is described by hand
  // (worker/openapi.ts): an image body, the link's own query.
  .put("/*", async (c) => {
    const key = tryDecodeURIComponent(new URL(c.req.url).pathname.replace(/^\/v1\/uploads\//, ""));
    const exp = Number(c.req.query("exp"));
    const max = Number(c.req.query("max"));
    const sig = c.req.query("sig") ?? "";
    if (
      !/^u\/\d+\/(note|avatar|cover|logo)\/[0-9a-f]{24}\.(gif|jpg|png|webp)$/.test(key) ||
      !Number.isSafeInteger(exp) ||
      !Number.isSafeInteger(max)
    ) {
      throw refused("Upload link is not valid.", 400);
    }
    if (!verifySignature(c.env, key, exp, max, sig)) throw refused("Upload link is not valid.");
    if (exp * 1000 < Date.now()) throw refused("Upload link has expired.", 410);
    const type = c.req.header("content-type") ?? "";
    if (!/^image\/(jpeg|png|gif|webp)$/.test(type)) throw refused("Only images can be uploaded.", 415);
    if (Number(c.req.header("content-length") ?? 0) > max) throw refused("Image is too large.", 413);
    const bytes = await c.req.arrayBuffer();
    if (bytes.byteLength === 0) throw refused("The image is empty.", 400);
    if (bytes.byteLength > max) throw refused("Image is too large.", 413);
    // The picture's natural size from its header (the browser's word stands when none is read).
    const sniffed = sniffImage(new Uint8Array(bytes));
    const size = sniffed.ok ? { width: sniffed.image.width, height: sniffed.image.height } : {};
    // Claim the slot first: the conditional update lets exactly one PUT through (no replay).
    const claimed = await c.var.db
      .update(uploadsTable)
      .set({ uploadedAt: Date.now(), ...size })
      .where(and(eq(uploadsTable.key, key), isNull(uploadsTable.uploadedAt), gt(uploadsTable.expiresAt, Date.now())))
      .returning({ key: uploadsTable.key });
    if (!claimed.length) throw refused("Upload link was already used.", 409);
    await c.env.IMAGES.put(key, bytes, { httpMetadata: { contentType: type } });
    return c.json({ key, file_url: `/img/${key}` }, 200);
  });

/**
 * Stored images, served with long-lived immutable caching (keys are never reused). A missing one
 * is not cached at all: a key that is not there yet may be an upload still on its way, and a cached
 * 404 kept the picture broken after it had arrived (issue 21 item 17).
 */
export const imageRoutes = new Hono<AppEnv>().get("/img/*", async (c) => {
  const key = tryDecodeURIComponent(new URL(c.req.url).pathname.slice("/img/".length));
  const obj = /^u\/\d+\/[a-z]+\/[0-9a-f]{24}\.(gif|jpg|png|webp)$/.test(key) ? await c.env.IMAGES.get(key) : null;
  if (!obj) return c.text("Not found", 404, { "Cache-Control": "no-store" });
  return new Response(obj.body, {
    headers: {
      "Content-Type": obj.httpMetadata?.contentType ?? "image/jpeg",
      "Cache-Control": "public, max-age=31536000, immutable",
      "X-Content-Type-Options": "nosniff",
      ETag: obj.httpEtag,
    },
  });
});
