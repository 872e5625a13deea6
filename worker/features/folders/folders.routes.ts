import { and, eq } from "drizzle-orm";
import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { folders } from "../../db/schema/folders";
import { readOne } from "../../db/reads";
import { BY_ADDRESS, BY_ID, type FolderLists, folderNotesRead } from "./folders.lists";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { me } from "../../lib/session";
import { type Answer, json, jsonBody, Ok, readBody, router, signedIn, typed } from "../../lib/validate";
import { IdParam, ListQuery, OWNER_REQUIRED, OwnerListQuery, orElse } from "../../lib/params";
import { createUploads } from "../uploads/uploads.links";
import { FolderInput } from "./folders.schema";
import { createFolder, deleteFolder, getFolder, listFolders, updateFolder } from "./folders.service";

const FolderList = OwnerListQuery.extend({
  type: z.string().max(30).optional(),
  // type and time are the spec's; cv groups a person's folders as a CV reads (Experience first).
  sort: orElse(z.enum(["type", "time", "cv"]), "time"),
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

const create = createRoute({
  method: "post",
  path: "/",
  summary: "Make an x-folder (an upload in it answers a signed link for its logo)",
  ...signedIn(readBody),
  request: { body: jsonBody(FolderInput) },
  responses: { 201: typed<Answer<typeof createFolder> & Answer<typeof withLogo>>("The new folder") },
});
const edit = createRoute({
  method: "patch",
  path: "/{id}",
  summary: "Edit your x-folder",
  ...signedIn(readBody),
  request: { params: IdParam, body: jsonBody(FolderInput) },
  responses: { 200: typed<Answer<typeof updateFolder> & Answer<typeof withLogo>>("The folder as saved") },
});
const remove = createRoute({
  method: "delete",
  path: "/{id}",
  summary: "Delete your x-folder",
  ...signedIn(),
  request: { params: IdParam },
  responses: { 200: json(Ok, "Deleted") },
});
const list = createRoute({
  method: "get",
  path: "/",
  summary: "A person's x-folders, by uid or username",
  request: { query: FolderList },
  responses: { 200: typed<Answer<typeof listFolders>>("One page of folders") },
});
const one = createRoute({
  method: "get",
  path: "/{id}",
  summary: "An x-folder",
  request: { params: IdParam },
  responses: { 200: typed<Answer<typeof getFolder>>("The folder") },
});
const notesOf = createRoute({
  method: "get",
  path: "/{id}/notes",
  summary: "The notes filed in an x-folder",
  request: { params: IdParam, query: FolderNotesQuery },
  responses: { 200: typed<Answer<typeof folderNotes>>("One page of notes") },
});
const atAddress = createRoute({
  method: "get",
  path: "/{slug}/user/{username}",
  summary: "An x-folder at its address",
  request: { params: FolderAddress },
  responses: { 200: typed<Answer<typeof getFolder>>("The folder") },
});
// The notes of the folder at that address: what GET /{id}/notes answers, without its id first.
const notesAtAddress = createRoute({
  method: "get",
  path: "/{slug}/user/{username}/notes",
  summary: "The notes filed in the x-folder at that address",
  request: { params: FolderAddress, query: FolderNotesQuery },
  responses: { 200: typed<Answer<typeof folderNotes>>("One page of notes") },
});

export const folderRoutes = router()
  .openapi(create, async (c) => {
    const input = c.req.valid("json");
    const folder = await createFolder(c.var.db, me(c).id, input);
    return c.json({ ...folder, ...(await withLogo(c, folder.id, input.upload)) }, 201);
  })
  .openapi(edit, async (c) => {
    const input = c.req.valid("json");
    const folder = await updateFolder(c.var.db, me(c).id, c.req.valid("param").id, input);
    return c.json({ ...folder, ...(await withLogo(c, folder.id, input.upload)) }, 200);
  })
  .openapi(remove, async (c) => {
    await deleteFolder(c.var.db, me(c).id, c.req.valid("param").id);
    return c.json({ ok: true as const }, 200);
  })
  .openapi(list, async (c) => c.json(await listFolders(c.var.db, c.req.valid("query"), c.var.user?.id ?? null), 200))
  .openapi(one, async (c) =>
    c.json(await getFolder(c.var.db, { id: c.req.valid("param").id }, c.var.user?.id ?? null), 200),
  )
  .openapi(notesOf, async (c) =>
    c.json(await folderNotes(c, BY_ID, { folder: c.req.valid("param").id }, c.req.valid("query")), 200),
  )
  .openapi(atAddress, async (c) => {
    const { slug, username } = c.req.valid("param");
    return c.json(await getFolder(c.var.db, { slug, username }, c.var.user?.id ?? null), 200);
  })
  .openapi(notesAtAddress, async (c) =>
    c.json(await folderNotes(c, BY_ADDRESS, c.req.valid("param"), c.req.valid("query")), 200),
  );
