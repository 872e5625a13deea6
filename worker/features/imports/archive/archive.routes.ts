// /v1/imports/archive: a Mastodon archive. POST the zip (multipart, field "file") for a preview of
// what it holds, checked whole before anything is written; then start the import, which runs off
// the request as an import job (jobs.ts), or drop the upload. A zip bigger than a request may carry
// goes by a signed PUT to R2 instead (archive.upload.ts), then POST /:id/received for its preview.
import type { Context } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../../env";
import { AppError } from "../../../lib/errors";
import { me } from "../../../lib/session";
import { actionOf } from "../../federation/federate";
import { startArchiveJob } from "./archive.kind";
import { takeProfile } from "./profile";
import { router } from "../../../lib/validate";
import { bodyMax, receiveArchive, reserveArchive, stageReceived } from "./archive.upload";
import { dropStaged, newStageId, readStaged, type Staged, stageArchive, stagedKey } from "./stage";

const tooLarge = (limit: number) =>
  new AppError(
    413,
    "too_large",
    `The file is too large to send through this form (at most ${Math.max(1, limit >> 20)} MB): send it by its upload link.`,
  );

/** The uploaded zip into R2 as it came (its size checked before it is read); answers its size. */
async function receive(c: Context<AppEnv>, key: string): Promise<number> {
  const limit = bodyMax(c.env);
  if (Number(c.req.header("content-length") ?? 0) > limit + 65_536) throw tooLarge(limit);
  const form = await c.req.formData().catch(() => null);
  const file = form?.get("file");
  if (!file || typeof file === "string" || file.size === 0)
    throw new AppError(400, "no_file", "Please choose the zip file of your Mastodon archive.");
  if (file.size > limit) throw tooLarge(limit);
  await c.env.IMAGES.put(key, file, { httpMetadata: { contentType: "application/zip" } });
  return file.size;
}

/** What the preview shows: counts, what will be left out (the first 200, with the total), the profile. */
export const previewOf = (s: Staged) => ({
  id: s.id,
  counts: s.counts,
  left: s.left.slice(0, 200),
  left_total: s.left.length,
  profile: {
    name: s.profile.name,
    bio: s.profile.bio,
    avatar: !!s.profile.avatarEntry,
    header: !!s.profile.headerEntry,
  },
});
export type ArchivePreview = ReturnType<typeof previewOf>;

const Start = z.object({ profile: z.enum(["replace", "keep"]).default("keep") });

export const archiveRoutes = router()
  .post("/", async (c) => {
    const uid = me(c).id;
    const id = newStageId();
    const size = await receive(c, stagedKey(uid, id, "archive.zip"));
    return c.json(previewOf(await stageArchive(c.env, uid, id, size)), 200);
  })
  .post("/uploads", async (c) => c.json(await reserveArchive(c), 200))
  .put("/uploads/:uid/:id", async (c) => c.json(await receiveArchive(c), 200))
  .post("/:id/received", async (c) => c.json(previewOf(await stageReceived(c)), 200))
  .get("/:id", async (c) => c.json(previewOf(await readStaged(c.env, me(c).id, c.req.param("id"))), 200))
  .delete("/:id", async (c) => {
    const uid = me(c).id;
    await readStaged(c.env, uid, c.req.param("id"));
    await dropStaged(c.env, uid, c.req.param("id"));
    return c.json({ ok: true as const }, 200);
  })
  .post("/:id/start", async (c) => {
    const uid = me(c).id;
    const body = Start.safeParse(await c.req.json().catch(() => ({})));
    if (!body.success) throw new AppError(422, "invalid_input", "Choose whether to replace your profile.");
    const staged = await readStaged(c.env, uid, c.req.param("id"));
    const profile = body.data.profile === "replace" ? await takeProfile(actionOf(c), uid, staged) : null;
    return c.json({ profile, job: await startArchiveJob(c, uid, staged) }, 200);
  });
