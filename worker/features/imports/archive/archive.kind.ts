// The archive as an import job (jobs.ts): one row per post to import, in the staged order, so a
// chunk of PART rows is one staged part, imported as one batch (importPosts). The posts the
// preview left out are the job's failures from the start, with their reasons.
import type { Context } from "hono";
import { dbFor } from "../../../db/client";
import { meteredD1, newMeter } from "../../../db/meter";
import type { AppEnv } from "../../../env";
import type { ActionContext } from "../../federation/federate";
import { startJob } from "../jobs";
import type { ImportKind, JobInfo, RowResult } from "../kinds";
import { importPosts, type PostResult } from "./run";
import { PART, r2Reader, readPart, type Staged, stagedKey } from "./stage";

interface ArchiveRow {
  /** The post's original address (what the failures list names). */
  item: string;
  stage: string;
  part: number;
}

async function rows(ctx: ActionContext, job: JobInfo, data: unknown[]): Promise<RowResult[]> {
  const list = data as ArchiveRow[];
  const done = new Map<string, PostResult>();
  // The step's own D1 work, metered: a line per step says what importing a post costs (the bench reads it).
  const meter = newMeter();
  const db = dbFor(meteredD1(ctx.env.DB, meter));
  for (const part of new Set(list.map((r) => r.part))) {
    const stage = list.find((r) => r.part === part)?.stage ?? "";
    const wanted = new Set(list.filter((r) => r.part === part).map((r) => r.item));
    const posts = (await readPart(ctx.env, job.userId, stage, part)).filter((p) => wanted.has(p.url));
    const read = r2Reader(ctx.env, stagedKey(job.userId, stage, "archive.zip"));
    for (const [url, result] of await importPosts(ctx.env, db, job.userId, posts, read)) done.set(url, result);
  }
  console.log(JSON.stringify({ t: "imports.archive", job: job.id, posts: list.length, ...meter }));
  return list.map((r) => done.get(r.item) ?? { ok: false, reason: "not found in the archive" });
}

export const archive: ImportKind = {
  row: async (ctx, job, data) => (await rows(ctx, job, [data]))[0],
  rows,
};

/** The job for a staged archive: its posts as rows, what the preview left out as its first failures. */
export function startArchiveJob(c: Context<AppEnv>, uid: number, staged: Staged) {
  const skipped = staged.left.filter((l) => !l.partial);
  // Boosts are many and self-explanatory: the kept failures list the other reasons first.
  const failures = [
    ...skipped.filter((l) => !l.reason.startsWith("a boost")),
    ...skipped.filter((l) => l.reason.startsWith("a boost")),
  ].map((l) => ({ row: 0, item: l.url, reason: l.reason }));
  return startJob(c, uid, {
    kind: "archive",
    mode: "merge",
    fileName: "Mastodon archive",
    rows: staged.urls.map((item, i) => ({ item, stage: staged.id, part: Math.floor(i / PART) })),
    failures,
  });
}
