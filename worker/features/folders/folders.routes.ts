import { and, eq, sql } from "drizzle-orm";
import { type Context, Hono } from "hono";
import { folderNotes, folders } from "../../db/schema/folders";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { body, param, query } from "../../lib/validate";
import { type ListShape, listNotes } from "../notes/read.service";
import { idNamed } from "../users/users.service";
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

/**
 * The folder at a page's address (its owner's name, any case, and its slug) as SQL, read inside the
 * list's own statement (folders_user_slug_uq): the folder page asks for the folder and its notes
 * side by side, in one round trip.
 */
const folderAt = sql`(select f.id from folders f where f.user_id = ${idNamed(sql.placeholder("username"))} and f.slug = ${sql.placeholder("slug")})`;

// A folder page reads along folder_notes (folder, label, time): it never sorts more than it shows.
const folderDriver = (label: boolean, byAddress: boolean): ListShape["driver"] => ({
  table: folderNotes,
  at: folderNotes.noteCreatedAt,
  id: folderNotes.noteId,
  where: and(
    eq(folderNotes.folderId, byAddress ? folderAt : sql.placeholder("folder")),
    label ? eq(folderNotes.label, sql.placeholder("label")) : undefined,
  ),
});
// A folder holds one author's notes, opened on purpose: a mute does not empty it (a block does).
const folderList = (name: string, label: boolean, byAddress: boolean): ListShape => ({
  name,
  driver: folderDriver(label, byAddress),
  mute: false,
});
/** A folder's notes by its address (`username`, `slug`): its page's list, and its feed's. */
export const FOLDER_AT = folderList("folderAt", false, true);
/** A folder's lists by id, and by address: [all, one x-label]. */
const BY_ID = [folderList("folder", false, false), folderList("folderLabel", true, false)] as const;
const BY_ADDRESS = [FOLDER_AT, folderList("folderAtLabel", true, true)] as const;

const FolderAddress = z.object({ slug: z.string().min(1).max(100), username: z.string().min(1).max(100) });
const FolderNotesQuery = ListQuery.extend({ label: z.string().max(100).optional() });

/** One page of a folder's notes (or of one x-label in it), the folder named by `values`. */
function folderNotesPage(
  c: Context<AppEnv>,
  [all, labelled]: readonly [ListShape, ListShape],
  values: Record<string, unknown>,
  q: z.output<typeof FolderNotesQuery>,
) {
  const label = q.label?.trim().toLowerCase();
  return listNotes(c.var.db, label ? labelled : all, { ...values, label }, q, c.var.user?.id ?? null);
}

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
    c.json(await folderNotesPage(c, BY_ID, { folder: c.req.valid("param").id }, c.req.valid("query"))),
  )
  .get("/:slug/user/:username", param(FolderAddress), async (c) => {
    const { slug, username } = c.req.valid("param");
    return c.json(await getFolder(c.var.db, { slug, username }, c.var.user?.id ?? null));
  })
  // The notes of the folder at that address: what GET /:id/notes answers, without its id first.
  .get("/:slug/user/:username/notes", param(FolderAddress), query(FolderNotesQuery), async (c) =>
    c.json(await folderNotesPage(c, BY_ADDRESS, c.req.valid("param"), c.req.valid("query"))),
  );
