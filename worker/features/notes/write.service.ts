// Writing notes: create, edit and delete, each one batch with every counter, tag, folder and
// notification it moves. Renotes and quotes are in renotes.service.ts.
import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Statement } from "../../db/plan";
import { drizzleRead, type Rows, readOne } from "../../db/reads";
import { deletedNotes, noteTags, notes } from "../../db/schema/notes";
import { noteVersions } from "../../db/schema/safety";
import { userLabels, users } from "../../db/schema/users";
import type { DB, Env } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { folderFileNew, folderResyncStatements, foldersOwned } from "../folders/folders.links";
import { linkMentions } from "../mentions/mentions.service";
import { mentionStatements, noteCreatedStatements } from "../notifications/notifications.links";
import { dimsJson, imageDims } from "../uploads/image-dims";
import { attachUploads, createUploads, ownedUploaded, type UploadSlot } from "../uploads/uploads.links";
import { RENOTE } from "./notes.constants";
import { countNote, labelIn, labelOut, renumOut } from "./notes.counters";
import { insertNote, madeNote, type PreparedWrite } from "./notes.insert";
import { newId } from "../../lib/ids";
import type { NoteData } from "./notes.schema";
import { insertWhere } from "../../db/insert";

/** Image URLs a note may carry: only this user's own uploaded keys, served by this worker. */
const IMG_PREFIX = "/img/";
const keysOf = (imgs: string[]) => imgs.map((u) => (u.startsWith(IMG_PREFIX) ? u.slice(IMG_PREFIX.length) : ""));
/**
 * The note's stored sizes (notes.dims) for its images: `imgs` must be the user's own uploads (else
 * 422); slots reserved in the same save have no bytes yet, so they take the size their caller read.
 */
async function checkImages(env: Env, db: DB, uid: number, imgs: string[], slots: NoteData["uploads"]): Promise<string> {
  const keys = keysOf(imgs);
  const owned = keys.some((k) => !k.startsWith(`u/${uid}/`)) ? null : await ownedUploaded(env, db, uid, keys);
  if (!owned) {
    throw new AppError(422, "invalid_input", "Images must be your own uploads.", {
      imgs: "Images must be your own uploads.",
    });
  }
  return dimsJson([
    ...keys.map((k) => owned.get(k) ?? null),
    ...slots.map((u) => imageDims(u.width, u.height, u.blurhash)),
  ]);
}

export interface SaveResult {
  /** `href` is the note's own page, so a client needs no second call to find where it lives. */
  note: { id: number; href: string };
  uploads: { key: string; put_link: string; file_url: string }[];
}

/**
 * The author's username, read as the last statement of the write's own batch (a session names only
 * the account): it makes the note's href without a trip of its own.
 */
const usernameRead = (db: DB, uid: number) =>
  db.select({ username: users.username }).from(users).where(eq(users.id, uid));

/** The username usernameRead found. */
const usernameIn = (rows: Rows) => (rows as { username: string }[])[0]?.username ?? "";

const saved = (username: string, id: number, slots: UploadSlot[]): SaveResult => ({
  note: { id, href: `/${username}/note/${id}` },
  uploads: slots.map((s) => ({ key: s.key, put_link: s.put_link, file_url: s.file_url })),
});

async function reserveUploads(env: Env, db: DB, uid: number, data: NoteData, origin: string): Promise<UploadSlot[]> {
  return data.uploads.length ? createUploads(env, db, uid, "note", data.uploads, origin) : [];
}

/** Notes go only into their author's own x-folders. */
function notYourFolders() {
  const message = "You can only file notes into your own x-folders.";
  return new AppError(422, "invalid_input", message, { folders: message });
}

/** A `mention` for each person a note names (`when`: the note's own guard). */
const noteMentions = (db: DB, uid: number, id: number | SQL, userIds: number[], txt: string, when?: SQL) =>
  mentionStatements(db, { actorId: uid, tblname: "note", targetId: id, userIds, extra: txt.slice(0, 100), when });

/** The tags of a note written in the same batch (`noteId` null when the write was refused: none). */
const newTagStatements = (db: DB, noteId: SQL, tags: string[], createdAt: number | SQL): Statement[] =>
  tags.length
    ? [
        db
          .insert(noteTags)
          .select(
            sql`select j.value, ${noteId}, ${createdAt} from json_each(${JSON.stringify(tags)}) j where ${noteId} is not null`,
          )
          .onConflictDoNothing(),
      ]
    : [];

/**
 * A new note's batch: the insert, then everything that depends on it, naming it by its id, made before the batch.
 * Filing it in folders that are not all the author's is refused (422) by the insert's own guard:
 * nothing is written, and its empty RETURNING says so. `named`: the people it mentions, when
 * they are not its text's @words (a post from elsewhere: its Mention tags).
 */
export async function prepareNote(
  env: Env,
  db: DB,
  uid: number,
  data: NoteData,
  origin: string,
  named?: number[],
  notify = true,
): Promise<PreparedWrite<SaveResult>> {
  const dims = await checkImages(env, db, uid, data.imgs, data.uploads);
  const linked = await linkMentions(db, uid, data.content);
  // A post from elsewhere names people by its Mention tags, not by the @words of its text.
  const mentions = { html: linked.html, userIds: named ?? linked.userIds };
  const slots = await reserveUploads(env, db, uid, data, origin);
  const now = Date.now();
  const imgs = [...data.imgs, ...slots.map((s) => s.file_url)].join(";");
  const ok = data.folders.length ? foldersOwned(uid, data.folders) : undefined;
  const madeId = newId("note", now);
  const id = madeNote(madeId);
  const statements = {
    made: insertNote(
      db,
      {
        id: madeId,
        userId: uid,
        kind: 0,
        label: data.label,
        content: mentions.html,
        txt: data.txt,
        imgs,
        alts: JSON.stringify(data.alts),
        dims,
        video: data.video,
        createdAt: now,
        notedAt: now,
      },
      ok,
    )
      // The author's username for the href, in the insert's own statement (no trip of its own).
      .returning({
        id: notes.id,
        username: sql<string>`(select username from users where id = ${uid})`.as("username"),
      }),
    // Slots reserved ahead of the note are its own now (the cleanup cron leaves them).
    attached: data.imgs.length ? [attachUploads(db, uid, keysOf(data.imgs), ok)] : [],
    counted: countNote(db, uid, id, 1),
    tagged: newTagStatements(db, id, data.tags, now),
    filed: folderFileNew(db, { userId: uid, noteId: id, label: data.label, createdAt: now, folderIds: data.folders }),
    told: notify
      ? noteCreatedStatements(db, { actorId: uid, noteId: id, extra: data.txt.slice(0, 100), when: ok })
      : [],
    mentioned: noteMentions(db, uid, id, mentions.userIds, data.txt, ok),
  };
  const answer = ({ made }: { made: Rows }) => {
    const [row] = made as { id: number; username: string | null }[];
    if (!row) throw notYourFolders();
    return saved(row.username ?? "", row.id, slots);
  };
  return { ...drizzleRead(db, statements, answer), id };
}

/**
 * Stores a note that is not news (an older post read in from elsewhere: federation/backfill.ts):
 * prepareNote's batch without notifying anyone, its followers or the people its text names.
 */
export async function storeQuietly(env: Env, db: DB, uid: number, data: NoteData, origin: string): Promise<SaveResult> {
  const write = await prepareNote(env, db, uid, data, origin, [], false);
  return await readOne(db, write);
}

/**
 * What an edit leaves as the note has it, unread: the Mastodon API edits a status's text (and its
 * images when it names them), never its x-label or folders, which apps do not know.
 */
export interface Kept {
  labelAndFolders?: boolean;
  images?: boolean;
  /** The note's YouTube video, which apps do not show: kept unless the edit gives it images. */
  video?: boolean;
}

/**
 * Edits the caller's note (kind 0 only: not a renote or quote) in one batch. Its first statement
 * reads the note as it was (a 404 when it is not theirs) and whether the folders asked for are
 * theirs (a 422); every write after it carries the same guard, so a refusal changes nothing. What
 * the edit compares (the stored text against this save's, for the history and the "edited" mark)
 * is compared in SQL against the row as it stands. The answer names the images the edit took off
 * (their files go after the batch); a caller may add reads after the statements. `named`: as
 * prepareNote's.
 */
export async function prepareUpdateNote(
  env: Env,
  db: DB,
  uid: number,
  id: number,
  data: NoteData,
  origin: string,
  kept: Kept = {},
  named?: number[],
) {
  const dims = await checkImages(env, db, uid, data.imgs, data.uploads);
  const linked = await linkMentions(db, uid, data.content);
  const mentions = { html: linked.html, userIds: named ?? linked.userIds };
  const slots = await reserveUploads(env, db, uid, data, origin);
  const imgs = [...data.imgs, ...slots.map((s) => s.file_url)];
  const mine = and(eq(notes.id, id), eq(notes.userId, uid), eq(notes.kind, 0));
  const filing = data.folders.length ? foldersOwned(uid, data.folders) : sql`1`;
  const ok = sql`(exists(select 1 from notes m where m.id = ${id} and m.user_id = ${uid} and m.kind = 0) and ${filing})`;
  // Like with like: the stored HTML against this save's, both with their mentions linked.
  const changed = kept.labelAndFolders
    ? sql`(${notes.content} != ${mentions.html})`
    : sql`(${notes.content} != ${mentions.html} or ${notes.label} != ${data.label})`;
  const createdAt = sql<number>`(select created_at from notes where id = ${id})`;
  const labelled = !kept.labelAndFolders;
  const images = kept.images ? {} : { imgs: imgs.join(";"), alts: JSON.stringify(data.alts), dims };
  const statements = {
    old: db
      .select({ imgs: notes.imgs, filing: sql<number>`${filing}`.as("filing") })
      .from(notes)
      .where(mine),
    attached: data.imgs.length ? [attachUploads(db, uid, keysOf(data.imgs), ok)] : [],
    unlabelled: labelled ? [labelOut(db, uid, id, ok)] : [],
    // The text being replaced is kept, stamped with when it was written (edit history).
    kept: db.insert(noteVersions).select(
      db
        .select({
          id: sql<number>`null`.as("id"),
          noteId: notes.id,
          label: notes.label,
          content: notes.content,
          txt: notes.txt,
          editedAt: sql<number>`coalesce(${notes.updatedAt}, ${notes.createdAt})`.as("edited_at"),
        })
        .from(notes)
        .where(and(mine, changed, ok)),
    ),
    updated: db
      .update(notes)
      .set({
        ...(labelled ? { label: data.label } : {}),
        content: mentions.html,
        txt: data.txt,
        ...images,
        video: kept.video && !imgs.length ? notes.video : data.video,
        updatedAt: sql`case when ${changed} then ${Date.now()} else ${notes.updatedAt} end`,
      })
      .where(and(mine, ok)),
    labelled: labelled ? labelIn(db, uid, id, ok) : [],
    untagged: db.delete(noteTags).where(and(eq(noteTags.noteId, id), ok)),
    tagged: newTagStatements(db, sql`(select ${id} where ${ok})`, data.tags, createdAt),
    filed: labelled
      ? folderResyncStatements(db, { userId: uid, noteId: id, label: data.label, folderIds: data.folders }, ok)
      : [],
    // Someone newly named is told; those the note already named are not told again.
    mentioned: noteMentions(db, uid, id, mentions.userIds, data.txt, ok),
    author: usernameRead(db, uid),
  };
  const answer = (rows: { old: Rows; author: Rows }) => {
    const [old] = rows.old as { imgs: string; filing: number }[];
    if (!old) throw notFound("Note not found");
    if (!old.filing) throw notYourFolders();
    const removed = kept.images ? [] : old.imgs.split(";").filter((u) => u && !imgs.includes(u));
    return {
      saved: saved(usernameIn(rows.author), id, slots),
      removed: removed.map((u) => u.slice(IMG_PREFIX.length)),
    };
  };
  return drizzleRead(db, statements, answer);
}

/**
 * Deleting the caller's note, built for one batch: its first statement reads the note (a 404 when
 * it is not theirs), every write carries the same condition, and each counter moves by the rows as
 * they stand (its folders by their filings, the original's renum by the note's renote_id). The
 * answer names the files of the images it carried, to go after the batch.
 */
export function prepareDeleteNote(db: DB, uid: number, id: number) {
  const mine = and(eq(notes.id, id), eq(notes.userId, uid));
  const ok = sql`exists(select 1 from notes m where m.id = ${id} and m.user_id = ${uid})`;
  const statements = {
    old: db.select({ imgs: notes.imgs }).from(notes).where(mine),
    // Out of every folder it is in (the note's own guard is in every statement).
    unfiled: folderResyncStatements(db, { userId: uid, noteId: id, label: "", folderIds: [] }, ok),
    uncounted: countNote(db, uid, id, -1),
    unrenoted: renumOut(db, sql`(select renote_id from notes where id = ${id} and user_id = ${uid})`, id),
    // Its replies, and the likes, bookmarks, reports and notifications about it and them, go with
    // it by their foreign keys (db/schema/social.ts).
    renotes: db.delete(notes).where(and(eq(notes.renoteId, id), eq(notes.kind, RENOTE), ok)),
    // Its page then says it was deleted (read.service.ts), rather than that it was never there.
    tombstone: insertWhere(db, deletedNotes, { id, userId: uid, createdAt: Date.now() }, ok).onConflictDoNothing(),
    deleted: db.delete(notes).where(mine),
    labels: db.delete(userLabels).where(and(eq(userLabels.userId, uid), eq(userLabels.n, 0))),
  };
  const answer = (rows: { old: Rows }) => {
    const [old] = rows.old as { imgs: string }[];
    if (!old) throw notFound("Note not found");
    return old.imgs
      .split(";")
      .filter((u) => u.startsWith(IMG_PREFIX))
      .map((u) => u.slice(IMG_PREFIX.length));
  };
  return drizzleRead(db, statements, answer);
}
