// Media an app uploads before posting (POST /api/v2/media): the image goes to R2 under one of the
// person's note upload slots (the same rules: types, 10 MB, cleaned up if no note takes it in 24 h);
// its id names the slot, and a status's media_ids put it in the note.
import { Hono } from "hono";
import { and, eq } from "drizzle-orm";
import { uploads } from "../../db/schema/notes";
import { MAX_ALT } from "../notes/notes.constants";
import { storeImage } from "./images";
import { fieldsOf, type MastoContext, type MastoEnv, notFoundError, scoped, viewer, originOf } from "./masto.http";
import { MEDIA_ID, mediaAttachment } from "./serialise";

type Size = { width: number; height: number } | null;

function attachment(c: MastoContext, id: string, description: string | null, size: Size) {
  return mediaAttachment(id, `${originOf(c)}/img/u/${viewer(c).id}/note/${id}`, description, size);
}

/** The size kept in an image's R2 metadata at upload (images.ts imageMetadata); none for older ones. */
const sizeOf = (meta: Record<string, string> | undefined): Size =>
  meta?.w && meta.h ? { width: Number(meta.w), height: Number(meta.h) } : null;

async function upload(c: MastoContext) {
  const me = viewer(c).id;
  const fields = await fieldsOf(c);
  const description = typeof fields.description === "string" ? fields.description.slice(0, MAX_ALT) : null;
  // A loose slot: the cleanup cron removes it with its object if no note takes it. The alt text
  // rides with the object until a status takes the image (compose.service altsOf).
  const slot = await storeImage(c, me, "file", fields.file, "note", { loose: true, alt: description });
  return c.json(attachment(c, slot.key.split("/").at(-1) ?? "", description || null, slot));
}

/** The person's own uploaded media by id, or 404. */
async function ownMedia(c: MastoContext) {
  const id = c.req.param("id") ?? "";
  if (!MEDIA_ID.test(id)) throw notFoundError();
  const [row] = await c.var.db
    .select({ key: uploads.key })
    .from(uploads)
    .where(and(eq(uploads.key, `u/${viewer(c).id}/note/${id}`), eq(uploads.userId, viewer(c).id)))
    .limit(1);
  if (!row) throw notFoundError();
  return id;
}

export const mediaRoutes = new Hono<MastoEnv>()
  .post("/api/v2/media", scoped("write:media"), upload)
  .post("/api/v1/media", scoped("write:media"), upload)
  .get("/api/v1/media/:id", scoped("write:media"), async (c) => {
    const id = await ownMedia(c);
    const head = await c.env.IMAGES.head(`u/${viewer(c).id}/note/${id}`);
    return c.json(attachment(c, id, head?.customMetadata?.alt ?? null, sizeOf(head?.customMetadata)));
  })
  .put("/api/v1/media/:id", scoped("write:media"), async (c) => {
    const id = await ownMedia(c);
    const fields = await fieldsOf(c);
    const description = typeof fields.description === "string" ? fields.description.slice(0, MAX_ALT) : "";
    const key = `u/${viewer(c).id}/note/${id}`;
    // R2 keeps metadata with the object: a new description is the object written again.
    const obj = await c.env.IMAGES.get(key);
    if (!obj) throw notFoundError();
    const { alt: _old, ...kept } = obj.customMetadata ?? {};
    await c.env.IMAGES.put(key, await obj.arrayBuffer(), {
      httpMetadata: obj.httpMetadata,
      customMetadata: description ? { ...kept, alt: description } : kept,
    });
    return c.json(attachment(c, id, description || null, sizeOf(kept)));
  });
