// /v1/imports: bring what a person has elsewhere. LinkedIn: upload the export's zip for a preview
// of the x-folders it holds, then import the ones chosen.
import { z } from "zod";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { me } from "../../lib/session";
import { router } from "../../lib/validate";
import { type ImportItem, linkedinItems } from "./linkedin";
import { CSV_ZIP } from "./zip";
import { importItems, MAX_ITEMS, ownKeys } from "./imports.service";
import type { Context } from "hono";
import { archiveRoutes } from "./archive/archive.routes";

/** The uploaded file of a multipart form (field "file"), checked for size before it is read. */
async function uploaded(c: Context<AppEnv>): Promise<Uint8Array> {
  const length = Number(c.req.header("content-length") ?? 0);
  if (length > CSV_ZIP.upload + 65_536)
    throw new AppError(413, "too_large", `The file is too large (at most ${CSV_ZIP.upload >> 20} MB).`);
  const form = await c.req.formData().catch(() => null);
  const file = form?.get("file");
  if (!file || typeof file === "string" || file.size === 0)
    throw new AppError(400, "no_file", "Please choose the zip file LinkedIn sent you.");
  if (file.size > CSV_ZIP.upload)
    throw new AppError(413, "too_large", `The file is too large (at most ${CSV_ZIP.upload >> 20} MB).`);
  return new Uint8Array(await file.arrayBuffer());
}

const Chosen = z.object({
  items: z.array(z.record(z.string(), z.unknown())).max(MAX_ITEMS, `At most ${MAX_ITEMS} x-folders in one import.`),
});

export const importRoutes = router()
  .route("/archive", archiveRoutes)
  .post("/linkedin/preview", async (c) => {
    const uid = me(c).id;
    const { items, problems } = linkedinItems(await uploaded(c));
    const have = await ownKeys(c.var.db, uid);
    return c.json({ items: items.map((i) => ({ ...i, exists: have.has(i.key) })), problems }, 200);
  })
  .post("/linkedin", async (c) => {
    const uid = me(c).id;
    const body = Chosen.safeParse(await c.req.json().catch(() => null));
    if (!body.success) throw new AppError(422, "invalid_input", body.error.issues[0]?.message ?? "invalid input");
    return c.json(await importItems(c.var.db, uid, body.data.items as unknown as ImportItem[]), 200);
  });
