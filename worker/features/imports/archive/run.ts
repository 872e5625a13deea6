// One step of an archive import: one staged part's posts become notes (and replies within the
// person's own threads) with their original dates, their images in R2 with their alt text, each
// keeping its original address. Nothing is delivered or announced: no Create, no live event, no
// notification. Each write is guarded by the original's address (unique per person), and the
// counters move in the same batch before the rows they count under the same guard, so a step run
// twice (a Queue retry, the same archive imported again) adds nothing and counts nothing twice.
import { and, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { runBatch } from "../../../db/client";
import { plus } from "../../../db/counters";
import { insertWhere } from "../../../db/insert";
import { noteTags, notes, uploads } from "../../../db/schema/notes";
import { replies } from "../../../db/schema/social";
import { users } from "../../../db/schema/users";
import type { DB, Env } from "../../../env";
import { sniffImage } from "../../uploads/image-bytes";
import { imageMetadata } from "../../mastodon/images";
import { MAX_BYTES } from "../../uploads/uploads.links";
import { type ReadAt, readEntry, type ZipEntry } from "./zipdir";
import type { StagedPost } from "./stage";
import { newId } from "../../../lib/ids";

const noteOf = (uid: number, url: string) =>
  sql`(select n.id from notes n where n.user_id = ${uid} and n.origin_url = ${url})`;
const replyOf = (uid: number, url: string) =>
  sql`(select r.id from replies r where r.user_id = ${uid} and r.origin_url = ${url})`;
const absent = (uid: number, url: string) => sql`(${noteOf(uid, url)} is null and ${replyOf(uid, url)} is null)`;

/** A stable key per original image: a retried step writes the same object, never a second one. */
async function keyOf(uid: number, post: string, path: string, ext: string) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${post}\n${path}`)));
  const hex = [...digest.subarray(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `u/${uid}/note/${hex}.${ext}`;
}

export interface StoredImage {
  key: string;
  type: string;
}

/** One image of the archive into R2, its type judged by its bytes; null (and why) when it is not an image. */
export async function storeArchiveImage(
  env: Env,
  read: ReadAt,
  entry: ZipEntry,
  key: (ext: string) => Promise<string>,
  cap: number,
  alt: string,
): Promise<StoredImage | string> {
  if (entry.originalSize > cap) return `${entry.name.split("/").pop()} is larger than ${cap >> 20} MB`;
  const bytes = await readEntry(read, entry, cap);
  const sniffed = sniffImage(bytes);
  if (!sniffed.ok) return `${entry.name.split("/").pop()} is not an image NoteX keeps (${sniffed.reason})`;
  const stored = { key: await key(sniffed.image.ext), type: sniffed.image.type };
  await env.IMAGES.put(stored.key, bytes, {
    httpMetadata: { contentType: stored.type },
    customMetadata: imageMetadata(sniffed.image, alt),
  });
  return stored;
}

/** The upload rows of images stored here: what the orphan sweep and deleting a note go by. */
export const uploadRows = (db: DB, uid: number, images: StoredImage[], purpose: string, now: number) =>
  images.length
    ? [
        db
          .insert(uploads)
          .values(
            images.map((i) => ({
              key: i.key,
              userId: uid,
              purpose,
              contentType: i.type,
              maxSize: MAX_BYTES.note,
              expiresAt: now,
              uploadedAt: now,
            })),
          )
          .onConflictDoNothing(),
      ]
    : [];

/** A note's statements: its row, its tags (at its own date). */
function noteStatements(db: DB, uid: number, p: StagedPost, images: (StoredImage & { alt: string })[]) {
  const id = noteOf(uid, p.url);
  return [
    insertWhere(
      db,
      notes,
      {
        id: newId("note"),
        userId: uid,
        kind: 0,
        content: p.content,
        txt: p.txt,
        imgs: images.map((i) => `/img/${i.key}`).join(";"),
        alts: JSON.stringify(images.map((i) => i.alt)),
        createdAt: p.at,
        notedAt: p.at,
        originUrl: p.url,
      },
      absent(uid, p.url),
    ),
    ...(p.tags.length
      ? [
          db
            .insert(noteTags)
            .select(
              sql`select j.value, ${id}, ${p.at} from json_each(${JSON.stringify(p.tags)}) j where ${id} is not null`,
            )
            .onConflictDoNothing(),
        ]
      : []),
  ];
}

/**
 * A reply's statements: its parent's counter, then its row, under the parent (a note or a reply of
 * this archive, imported in an earlier statement or step: the posts come oldest first).
 */
function replyStatements(db: DB, uid: number, p: StagedPost & { parent: string }) {
  const ok = absent(uid, p.url);
  const parentNote = noteOf(uid, p.parent);
  const parentReply = replyOf(uid, p.parent);
  return [
    db
      .update(notes)
      .set({ repnum: plus(notes.repnum, 1) })
      .where(and(sql`${notes.id} = ${parentNote}`, ok)),
    db
      .update(replies)
      .set({ repnum: plus(replies.repnum, 1) })
      .where(and(sql`${replies.id} = ${parentReply}`, ok)),
    insertWhere(
      db,
      replies,
      {
        id: newId("reply"),
        userId: uid,
        noteId: sql`coalesce(${parentNote}, (select r.note_id from replies r where r.id = ${parentReply}))`,
        parentReplyId: sql`${parentReply}`,
        content: p.content,
        txt: p.txt,
        createdAt: p.at,
        originUrl: p.url,
      },
      sql`${ok} and coalesce(${parentNote}, ${parentReply}) is not null`,
    ),
  ];
}

/** The originals of `urls` this person has already: one statement. */
async function existingOf(db: DB, uid: number, urls: string[]): Promise<Set<string>> {
  const [n, r] = (await runBatch(db, [
    db
      .select({ url: notes.originUrl })
      .from(notes)
      .where(
        and(
          eq(notes.userId, uid),
          inArray(notes.originUrl, sql`(select value from json_each(${JSON.stringify(urls)}))`),
        ),
      ),
    db
      .select({ url: replies.originUrl })
      .from(replies)
      .where(
        and(
          eq(replies.userId, uid),
          inArray(replies.originUrl, sql`(select value from json_each(${JSON.stringify(urls)}))`),
        ),
      ),
  ])) as { url: string }[][];
  return new Set([...n, ...r].map((x) => x.url));
}

/** What became of one post: imported (or there already), with any image left out; or not, with why. */
export type PostResult = { ok: true; warning?: string } | { ok: false; reason: string };

/**
 * Imports `posts` (one staged part, oldest first) as one batch; a post already imported is left as
 * it is and answers ok. Images are stored first (each judged by its bytes), then every row.
 */
export async function importPosts(
  env: Env,
  db: DB,
  uid: number,
  posts: StagedPost[],
  read: ReadAt,
): Promise<Map<string, PostResult>> {
  const have = await existingOf(
    db,
    uid,
    posts.map((p) => p.url),
  );
  const results = new Map<string, PostResult>(posts.map((p) => [p.url, { ok: true }]));
  const fresh = posts.filter((p) => !have.has(p.url));
  if (!fresh.length) return results;
  const now = Date.now();
  const noteUrls: string[] = [];
  const rows: BatchItem<"sqlite">[] = [];
  for (const p of fresh) {
    if (p.parent) {
      rows.push(...replyStatements(db, uid, { ...p, parent: p.parent }));
      continue;
    }
    const images: (StoredImage & { alt: string })[] = [];
    const lost: string[] = [];
    for (const m of p.media) {
      const stored = await storeArchiveImage(
        env,
        read,
        m.entry,
        (ext) => keyOf(uid, p.url, m.path, ext),
        MAX_BYTES.note,
        m.alt,
      );
      if (typeof stored === "string") lost.push(stored);
      else images.push({ ...stored, alt: m.alt });
    }
    if (!p.txt && !images.length) {
      results.set(p.url, { ok: false, reason: `nothing left to show: ${lost.join("; ")}` });
      continue;
    }
    if (lost.length) results.set(p.url, { ok: true, warning: `imported without ${lost.join("; ")}` });
    noteUrls.push(p.url);
    rows.push(...uploadRows(db, uid, images, "note", now), ...noteStatements(db, uid, p, images));
  }
  // The person's note count moves before the rows, under the rows' own guard: exact on a rerun.
  const counted = db
    .update(users)
    .set({
      noteNum: sql`${users.noteNum} + (select count(*) from json_each(${JSON.stringify(noteUrls)}) j where not exists(select 1 from notes x where x.user_id = ${uid} and x.origin_url = j.value))`,
    })
    .where(eq(users.id, uid));
  await runBatch(db, [counted, ...rows]);
  return results;
}
