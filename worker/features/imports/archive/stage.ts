// An uploaded Mastodon archive, staged: stored in R2 as it came, its central directory judged,
// actor.json and outbox.json read and checked, and the posts it will import written back to R2 as
// small parts (each with where its images sit in the zip), so the import reads one part per step
// and never the whole archive. Nothing is written to D1 here: a refused archive changes nothing.
import { encodeHexLowerCase } from "@oslojs/encoding";
import type { Env } from "../../../env";
import { AppError } from "../../../lib/errors";
import { type ArchivePlan, type ArchivePost, planArchive } from "./mastodon";
import { type ReadAt, readDirectory, readEntry, type ZipEntry } from "./zipdir";

/**
 * The archive's caps. 100 MB is what Cloudflare lets a request to a Worker carry on most plans;
 * the outbox must be parsed whole, so its cap keeps it within a Worker's memory (about 15,000 posts).
 */
export const ARCHIVE = {
  upload: 100 << 20,
  /** An archive sent straight to R2 by a signed PUT (archive.upload.ts): R2 takes it, the request never holds it. */
  stored: 1 << 30,
  entries: 20_000,
  total: 2 * 1024 ** 3,
  ratio: 200,
  outbox: 48 << 20,
  actor: 1 << 20,
} as const;

/** Posts per part: one Queue step imports one part (its images read by range, at most a few hundred R2 calls). */
export const PART = 50;

export interface StagedMedia {
  path: string;
  alt: string;
  entry: ZipEntry;
}
export type StagedPost = Omit<ArchivePost, "media"> & { media: StagedMedia[] };

/** What the preview shows and the import keeps: counts, what is left out, the profile, the parts. */
export interface Staged {
  id: string;
  counts: ArchivePlan["counts"];
  left: ArchivePlan["left"];
  profile: ArchivePlan["profile"] & { avatarEntry: ZipEntry | null; headerEntry: ZipEntry | null };
  parts: number;
  /** Every post's original address, in import order (post i is in part i / PART). */
  urls: string[];
}

const bad = (message: string) => new AppError(422, "bad_archive", message);
const HELP = "Upload the zip Mastodon sends from Settings → Import and export → Request your archive.";

export const stagedKey = (uid: number, id: string, name: string) => `imports/${uid}/${id}/${name}`;

/** Ranged reads of an object in R2. */
export const r2Reader =
  (env: Env, key: string): ReadAt =>
  async (offset, length) => {
    const object = await env.IMAGES.get(key, { range: { offset, length } });
    if (!object) throw new AppError(410, "archive_gone", "The uploaded archive is no longer there: upload it again.");
    return new Uint8Array(await object.arrayBuffer());
  };

/** A JSON file of the archive, parsed; a 422 naming the file when it is missing or not JSON. */
async function jsonEntry(read: ReadAt, entries: ZipEntry[], name: string, cap: number) {
  const entry = entries.find((e) => e.name === name);
  if (!entry) throw bad(`The archive has no ${name}. ${HELP}`);
  const text = new TextDecoder("utf-8").decode(await readEntry(read, entry, cap));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw bad(`${name} in the archive is not valid JSON: it may be damaged. ${HELP}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw bad(`${name} in the archive is not what Mastodon writes. ${HELP}`);
  return value as Record<string, unknown>;
}

/**
 * Stages the archive at R2 key `imports/<uid>/<id>/archive.zip` (already stored by the caller):
 * judged and planned, its parts written beside it. On a refusal every staged object is removed.
 */
export async function stageArchive(env: Env, uid: number, id: string, size: number): Promise<Staged> {
  const read = r2Reader(env, stagedKey(uid, id, "archive.zip"));
  try {
    // The form's own limit was checked before the zip was stored; one sent by link may weigh up to `stored`.
    const entries = await readDirectory(read, size, { ...ARCHIVE, upload: ARCHIVE.stored });
    const outbox = await jsonEntry(read, entries, "outbox.json", ARCHIVE.outbox);
    const actor = await jsonEntry(read, entries, "actor.json", ARCHIVE.actor);
    if (outbox.type !== "OrderedCollection" || !Array.isArray(outbox.orderedItems))
      throw bad(`outbox.json in the archive is not what Mastodon writes. ${HELP}`);
    const byName = new Map(entries.map((e) => [e.name, e]));
    const plan = planArchive(outbox, actor, new Set(byName.keys()));
    const posts: StagedPost[] = plan.posts.map((p) => ({
      ...p,
      media: p.media.map((m) => ({ ...m, entry: byName.get(m.path) as ZipEntry })),
    }));
    const parts = Math.ceil(posts.length / PART);
    for (let n = 0; n < parts; n++)
      await env.IMAGES.put(stagedKey(uid, id, `part-${n}.json`), JSON.stringify(posts.slice(n * PART, (n + 1) * PART)));
    const { profile } = plan;
    const staged: Staged = {
      id,
      counts: plan.counts,
      left: plan.left,
      profile: {
        ...profile,
        avatarEntry: profile.avatar ? (byName.get(profile.avatar) ?? null) : null,
        headerEntry: profile.header ? (byName.get(profile.header) ?? null) : null,
      },
      parts,
      urls: posts.map((p) => p.url),
    };
    await env.IMAGES.put(stagedKey(uid, id, "staged.json"), JSON.stringify(staged));
    return staged;
  } catch (e) {
    await dropStaged(env, uid, id);
    throw e;
  }
}

/** The staged archive's summary, or a 404 (someone else's id finds nothing: the key holds the owner). */
export async function readStaged(env: Env, uid: number, id: string): Promise<Staged> {
  const object = /^[0-9a-f]{24}$/.test(id) ? await env.IMAGES.get(stagedKey(uid, id, "staged.json")) : null;
  if (!object) throw new AppError(404, "not_found", "This archive is no longer waiting: upload it again.");
  return (await object.json()) as Staged;
}

export async function readPart(env: Env, uid: number, id: string, n: number): Promise<StagedPost[]> {
  const object = await env.IMAGES.get(stagedKey(uid, id, `part-${n}.json`));
  if (!object) throw new AppError(410, "archive_gone", "The uploaded archive is no longer there: upload it again.");
  return (await object.json()) as StagedPost[];
}

/** Removes every staged object of an archive (done, cancelled or refused). */
export async function dropStaged(env: Env, uid: number, id: string) {
  const listed = await env.IMAGES.list({ prefix: stagedKey(uid, id, "") });
  if (listed.objects.length) await env.IMAGES.delete(listed.objects.map((o) => o.key));
}

export const newStageId = () => encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(12)));
