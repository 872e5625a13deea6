import { and, eq, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { folderNotes, folders } from "../../db/schema/folders";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { body, param, query } from "../../lib/validate";
import { type ListShape, listNotes } from "../notes/read.service";
import { IdParam, ListQuery, OWNER_REQUIRED, OwnerListQuery } from "../../lib/params";
import { createUploads } from "../uploads/uploads.links";
import { FolderInput } from "./folders.schema";
import { createFolder, deleteFolder, getFolder, listFolders, updateFolder } from "./folders.service";

const FolderList = OwnerListQuery.extend({
  type: z.string().max(30).optional(),
  sort: z.enum(["type", "time"]).catch("time"),
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

// A folder page reads along folder_notes (folder, label, time): it never sorts more than it shows.
const folderDriver = (label: boolean): ListShape["driver"] => ({
  table: folderNotes,
  at: folderNotes.noteCreatedAt,
  id: folderNotes.noteId,
  where: and(
    eq(folderNotes.folderId, sql.placeholder("folder")),
    label ? eq(folderNotes.label, sql.placeholder("label")) : undefined,
  ),
});
// A folder holds one author's notes, opened on purpose: a mute does not empty it (a block does).
export const FOLDER_LIST: ListShape = { name: "folder", driver: folderDriver(false), mute: false };
const FOLDER_LABEL_LIST: ListShape = { name: "folderLabel", driver: folderDriver(true), mute: false };

/** A folder's own page, answered on create and edit so the page that saved it needs no second call. */
const folderHref = (username: string, slug: string) => `/${username}/x/${encodeURIComponent(slug)}`;

export const folderRoutes = new Hono<AppEnv>()
  .post("/", requireUser, body(FolderInput), async (c) => {
    const input = c.req.valid("json");
    const folder = await createFolder(c.var.db, me(c).id, input);
    return c.json(
      { ...folder, href: folderHref(me(c).username, folder.slug), ...(await withLogo(c, folder.id, input.upload)) },
      201,
    );
  })
  .patch("/:id", requireUser, param(IdParam), body(FolderInput), async (c) => {
    const input = c.req.valid("json");
    const folder = await updateFolder(c.var.db, me(c).id, c.req.valid("param").id, input);
    return c.json({
      ...folder,
      href: folderHref(me(c).username, folder.slug),
      ...(await withLogo(c, folder.id, input.upload)),
    });
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
  .get("/:id/notes", param(IdParam), query(ListQuery.extend({ label: z.string().max(100).optional() })), async (c) => {
    const { id } = c.req.valid("param");
    const q = c.req.valid("query");
    const label = q.label?.trim().toLowerCase();
    return c.json(
      await listNotes(
        c.var.db,
        label ? FOLDER_LABEL_LIST : FOLDER_LIST,
        { folder: id, label },
        q,
        c.var.user?.id ?? null,
      ),
    );
  })
  .get(
    "/:slug/user/:username",
    param(z.object({ slug: z.string().min(1).max(100), username: z.string().min(1).max(100) })),
    async (c) => {
      const { slug, username } = c.req.valid("param");
      return c.json(await getFolder(c.var.db, { slug, username }, c.var.user?.id ?? null));
    },
  );
