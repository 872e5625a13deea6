import { and, eq } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { folders } from "../../db/schema/folders";
import { readOne } from "../../db/reads";
import { BY_ADDRESS, BY_ID, type FolderLists, folderNotesRead } from "./folders.lists";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { body, param, query } from "../../lib/validate";
import { IdParam, ListQuery, OWNER_REQUIRED, OwnerListQuery } from "../../lib/params";
import { createUploads } from "../uploads/uploads.links";
import { FolderInput } from "./folders.schema";
import { createFolder, deleteFolder, getFolder, listFolders, updateFolder } from "./folders.service";

const FolderList = OwnerListQuery.extend({
  type: z.string().max(30).optional(),
  // type and time are the spec's; cv groups a person's folders as a CV reads (Experience first).
  sort: z.enum(["type", "time", "cv"]).catch("time"),
}).refine(...OWNER_REQUIRED);

/** Spec 7: a folder save with an upload answers `upload.put_link`; the logo URL is stored at once. */
async function withLogo(
  c: Context<AppEnv>,
  id: number,
  upload?: { file_size: number; file_ext: string },
): Promise<{ logo?: string; upload?: { key: string; put_link: string; file_url: string } }> {
  if (!upload) return {};
  const uid = me(c).id;
  const [slot] = await createUploads(c.env, c.var.db, uid, "logo", [upload], new URL(c.req.url).origin);
  await c.var.db
    .update(folders)
    .set({ logo: slot.file_url })
    .where(and(eq(folders.id, id), eq(folders.userId, uid)));
  return { logo: slot.file_url, upload: { key: slot.key, put_link: slot.put_link, file_url: slot.file_url } };
}

const FolderAddress = z.object({ slug: z.string().min(1).max(100), username: z.string().min(1).max(100) });
const FolderNotesQuery = ListQuery.extend({ label: z.string().max(100).optional() });

const folderNotes = (
  c: Context<AppEnv>,
  shapes: FolderLists,
  values: Record<string, unknown>,
  q: z.output<typeof FolderNotesQuery>,
) => readOne(c.var.db, folderNotesRead(c.var.db, shapes, values, q.label, q, c.var.user?.id ?? null));

export const folderRoutes = new Hono<AppEnv>()
  .post("/", requireUser, body(FolderInput), async (c) => {
    const input = c.req.valid("json");
    const folder = await createFolder(c.var.db, me(c).id, input);
    return c.json({ ...folder, ...(await withLogo(c, folder.id, input.upload)) }, 201);
  })
  .patch("/:id", requireUser, param(IdParam), body(FolderInput), async (c) => {
    const input = c.req.valid("json");
    const folder = await updateFolder(c.var.db, me(c).id, c.req.valid("param").id, input);
    return c.json({ ...folder, ...(await withLogo(c, folder.id, input.upload)) });
  })
  .delete("/:id", requireUser, param(IdParam), async (c) => {
    await deleteFolder(c.var.db, me(c).id, c.req.valid("param").id);
    return c.json({ ok: true });
  })
  .get("/", query(FolderList), async (c) =>
    c.json(await listFolders(c.var.db, c.req.valid("query"), c.var.user?.id ?? null)),
  )
  .get("/:id", param(IdParam), async (c) =>
    c.json(await getFolder(c.var.db, { id: c.req.valid("param").id }, c.var.user?.id ?? null)),
  )
  .get("/:id/notes", param(IdParam), query(FolderNotesQuery), async (c) =>
    c.json(await folderNotes(c, BY_ID, { folder: c.req.valid("param").id }, c.req.valid("query"))),
  )
  .get("/:slug/user/:username", param(FolderAddress), async (c) => {
    const { slug, username } = c.req.valid("param");
    return c.json(await getFolder(c.var.db, { slug, username }, c.var.user?.id ?? null));
  })
  // The notes of the folder at that address: what GET /:id/notes answers, without its id first.
  .get("/:slug/user/:username/notes", param(FolderAddress), query(FolderNotesQuery), async (c) =>
    c.json(await folderNotes(c, BY_ADDRESS, c.req.valid("param"), c.req.valid("query"))),
  );
