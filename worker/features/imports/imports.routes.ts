// /v1/imports: bring what a person has elsewhere. LinkedIn: upload the export's zip for a preview
// of the x-folders it holds, then import the ones chosen. Mastodon's CSV exports: the upload is
// checked whole, then a job (jobs.ts) does its rows off the request; its progress, cancel.
import { z } from "zod";
import type { AppEnv } from "../../env";
import { readOne } from "../../db/reads";
import { AppError, invalid } from "../../lib/errors";
import { me } from "../../lib/session";
import { router } from "../../lib/validate";
import { type ImportItem, linkedinItems } from "./linkedin";
import { CSV_ZIP } from "./zip";
import { importItems, MAX_ITEMS, ownKeys } from "./imports.service";
import { cancelJob, jobRead, jobsRead, startJob } from "./jobs";
import { MASTODON_KINDS, MAX_CSV_BYTES, parseMastodonCsv } from "./mastodon-csv";
import type { Context } from "hono";
import { archiveRoutes } from "./archive/archive.routes";

/**
 * The uploaded file of a multipart form (field "file"), checked for size before it is read, and
 * the form's other fields.
 */
async function uploaded(
  c: Context<AppEnv>,
  limit = CSV_ZIP.upload,
  missing = "Please choose the zip file LinkedIn sent you.",
): Promise<{ bytes: Uint8Array; name: string; form: FormData }> {
  const tooLarge = () => new AppError(413, "too_large", `The file is too large (at most ${limit >> 20} MB).`);
  if (Number(c.req.header("content-length") ?? 0) > limit + 65_536) throw tooLarge();
  const form = await c.req.formData().catch(() => null);
  const file = form?.get("file");
  if (!form || !file || typeof file === "string" || file.size === 0) throw new AppError(400, "no_file", missing);
  if (file.size > limit) throw tooLarge();
  return { bytes: new Uint8Array(await file.arrayBuffer()), name: file.name, form };
}

const MastodonForm = z.object({
  kind: z.enum(MASTODON_KINDS, "Choose what the file holds."),
  mode: z.enum(["merge", "overwrite"], "Choose merge or overwrite.").default("merge"),
});

const JobId = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
const jobId = (c: Context<AppEnv>) => {
  const q = JobId.safeParse({ id: c.req.param("id") });
  if (!q.success) throw new AppError(404, "not_found", "Import not found");
  return q.data.id;
};

const Chosen = z.object({
  items: z.array(z.record(z.string(), z.unknown())).max(MAX_ITEMS, `At most ${MAX_ITEMS} x-folders in one import.`),
});

export const importRoutes = router()
  .route("/archive", archiveRoutes)
  .post("/linkedin/preview", async (c) => {
    const uid = me(c).id;
    const { items, problems } = linkedinItems((await uploaded(c)).bytes);
    const have = await ownKeys(c.var.db, uid);
    return c.json({ items: items.map((i) => ({ ...i, exists: have.has(i.key) })), problems }, 200);
  })
  .post("/linkedin", async (c) => {
    const uid = me(c).id;
    const body = Chosen.safeParse(await c.req.json().catch(() => null));
    if (!body.success) throw new AppError(422, "invalid_input", body.error.issues[0]?.message ?? "invalid input");
    return c.json(await importItems(c.var.db, uid, body.data.items as unknown as ImportItem[]), 200);
  })
  .post("/mastodon", async (c) => {
    const uid = me(c).id;
    const { bytes, name, form } = await uploaded(
      c,
      MAX_CSV_BYTES,
      "Please choose a CSV file from your Mastodon export.",
    );
    const choice = MastodonForm.safeParse({ kind: form.get("kind") ?? undefined, mode: form.get("mode") || undefined });
    if (!choice.success) throw invalid(choice.error);
    const { rows, failures } = parseMastodonCsv(choice.data.kind, bytes);
    const job = await startJob(c, uid, { ...choice.data, fileName: name, rows, failures });
    return c.json(job, 202);
  })
  .get("/jobs", async (c) => c.json(await readOne(c.var.db, jobsRead(c.var.db, me(c).id)), 200))
  .get("/jobs/:id", async (c) => c.json(await readOne(c.var.db, jobRead(c.var.db, me(c).id, jobId(c))), 200))
  .post("/jobs/:id/cancel", async (c) => c.json(await cancelJob(c.var.db, me(c).id, jobId(c)), 200));
