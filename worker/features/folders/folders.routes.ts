import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { me, requireUser } from "../../lib/session";
import { body, param, query } from "../../lib/validate";
import { ListQuery } from "../notes/notes.schema";
import { listNotes } from "../notes/notes.service";
import { IdParam } from "../social.shared";
import { FolderInput } from "./folders.schema";
import { createFolder, deleteFolder, getFolder, listFolders, updateFolder } from "./folders.service";

const FolderList = ListQuery.extend({
  uid: z.coerce.number({ error: "uid is required" }).int().positive().max(Number.MAX_SAFE_INTEGER),
  type: z.string().max(30).optional(),
  sort: z.enum(["type", "time"]).catch("time"),
});

export const folderRoutes = new Hono<AppEnv>()
  .post("/", requireUser, body(FolderInput), async (c) =>
    c.json(await createFolder(c.var.db, me(c).id, c.req.valid("json")), 201),
  )
  .patch("/:id", requireUser, param(IdParam), body(FolderInput), async (c) =>
    c.json(await updateFolder(c.var.db, me(c).id, c.req.valid("param").id, c.req.valid("json"))),
  )
  .delete("/:id", requireUser, param(IdParam), async (c) => {
    await deleteFolder(c.var.db, me(c).id, c.req.valid("param").id);
    return c.json({ ok: true });
  })
  .get("/", query(FolderList), async (c) => c.json(await listFolders(c.var.db, c.req.valid("query"))))
  .get("/:id{[0-9]+}", param(IdParam), async (c) =>
    c.json(await getFolder(c.var.db, { id: c.req.valid("param").id }, c.var.user?.id ?? null)),
  )
  .get(
    "/:id{[0-9]+}/notes",
    param(IdParam),
    query(ListQuery.extend({ label: z.string().max(100).optional() })),
    async (c) => {
      const { id } = c.req.valid("param");
      const q = c.req.valid("query");
      const label = q.label?.trim().toLowerCase();
      const where = sql`notes.id in (select note_id from folder_notes where folder_id = ${id}${label ? sql` and label = ${label}` : sql``})`;
      return c.json(await listNotes(c.var.db, where, q, c.var.user?.id ?? null));
    },
  )
  .get(
    "/:slug/user/:username",
    param(z.object({ slug: z.string().min(1).max(100), username: z.string().min(1).max(100) })),
    async (c) => {
      const { slug, username } = c.req.valid("param");
      return c.json(await getFolder(c.var.db, { slug, username }, c.var.user?.id ?? null));
    },
  );
