// GET /v1/export (issue 17 item 5): the person's data as a zip, streamed while it is read. Every
// table is read a page at a time by keyset, and images are piped from R2 object by object, so an
// account with 10,000 notes never sits in memory at once.
import { and, asc, eq, gt, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { folders } from "../../db/schema/folders";
import { notes } from "../../db/schema/notes";
import { blocks, moderationLog, mutes, noteVersions } from "../../db/schema/safety";
import { follows, replies, reports } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import type { DB, Env } from "../../env";
import { notFound } from "../../lib/errors";
import { MARKS } from "../interactions/kinds";
import { REPORT_KINDS } from "../reports/reports.constants";
import { htmlToMarkdown } from "./markdown";
import { ZipWriter } from "./export.zip";
import { readOne } from "../../db/reads";
import { portfolioRead } from "../resume/resume.read";
import { toJsonResume } from "../resume/resume.json";
import { cvOf } from "../resume/cv.model";
import { cvHtml } from "../resume/cv.page";

const PAGE = 500;
const KINDS = ["note", "renote", "quote"] as const;
const iso = (ms: number | null | undefined) => (ms ? new Date(ms).toISOString() : null);

/** YAML front matter values: JSON strings are valid YAML scalars, so quoting needs no other rules. */
const yaml = (v: unknown) => JSON.stringify(v);

function noteMarkdown(n: NotePageRow): string {
  const front: [string, unknown][] = [
    ["id", n.id],
    ["kind", KINDS[n.kind] ?? "note"],
    ["label", n.label],
    ["tags", JSON.parse(n.tags ?? "[]")],
    ["folders", JSON.parse(n.folders ?? "[]")],
    ["created_at", iso(n.createdAt)],
    ["noted_at", iso(n.notedAt)],
    ["updated_at", iso(n.updatedAt)],
    ["images", n.imgs ? n.imgs.split(";").filter(Boolean) : []],
    ["image_alts", JSON.parse(n.alts || "[]")],
    ["video", n.video || null],
    ["renote_of", n.renoteId],
    ["likes", n.likenum],
    ["replies", n.repnum],
    ["renotes", n.renum],
    // Hidden by the moderators (issue 16): the owner still has it, and should know it is not public.
    ...(n.hiddenAt ? ([["hidden_at", iso(n.hiddenAt)]] as [string, unknown][]) : []),
  ];
  const head = front.map(([k, v]) => `${k}: ${yaml(v)}`).join("\n");
  return `---\n${head}\n---\n\n${htmlToMarkdown(n.content)}\n`;
}

type NotePageRow = typeof notes.$inferSelect & { tags: string | null; folders: string | null };

const notePage = (db: DB, uid: number, after: NotePageRow | null) =>
  db
    .select({
      ...notesColumns,
      // The note's id is written out as notes.id: in a one-table select drizzle writes ${notes.id}
      // as a bare "id", which inside the folders subquery names the folder's own id.
      tags: sql<string | null>`(select json_group_array(t.tag) from note_tags t where t.note_id = notes.id)`.as(
        "x_tags",
      ),
      folders: sql<
        string | null
      >`(select json_group_array(f.name) from folder_notes fn join folders f on f.id = fn.folder_id where fn.note_id = notes.id)`.as(
        "x_folders",
      ),
    })
    .from(notes)
    .where(
      and(
        eq(notes.userId, uid),
        after ? sql`(${notes.createdAt}, ${notes.id}) > (${after.createdAt}, ${after.id})` : undefined,
      ),
    )
    .orderBy(asc(notes.createdAt), asc(notes.id))
    .limit(PAGE) as unknown as Promise<NotePageRow[]>;

const notesColumns = {
  id: notes.id,
  userId: notes.userId,
  kind: notes.kind,
  label: notes.label,
  content: notes.content,
  txt: notes.txt,
  imgs: notes.imgs,
  alts: notes.alts,
  video: notes.video,
  renoteId: notes.renoteId,
  renum: notes.renum,
  repnum: notes.repnum,
  likenum: notes.likenum,
  createdAt: notes.createdAt,
  notedAt: notes.notedAt,
  updatedAt: notes.updatedAt,
  hiddenAt: notes.hiddenAt,
};

/**
 * One of the person's relations to others (whom they follow, their followers, whom they block or
 * mute) as `file`: a page at a time, oldest first, from `mine` (the person's side) to `other`.
 */
async function people(
  db: DB,
  w: ZipWriter,
  uid: number,
  file: string,
  table: typeof follows | typeof blocks | typeof mutes,
  mine: SQLiteColumn,
  other: SQLiteColumn,
) {
  await w.jsonArray(
    file,
    (a: { createdAt: number; id: number } | null) =>
      db
        .select({ id: users.id, username: users.username, fullname: users.fullname, createdAt: table.createdAt })
        .from(table)
        .innerJoin(users, eq(users.id, other))
        .where(and(eq(mine, uid), a ? sql`(${table.createdAt}, ${other}) > (${a.createdAt}, ${a.id})` : undefined))
        .orderBy(asc(table.createdAt), asc(other))
        .limit(PAGE),
    (p) => ({ id: p.id, username: p.username, name: p.fullname, since: iso(p.createdAt) }),
  );
}

type UserRow = typeof users.$inferSelect;

/** The portfolio as the person takes it elsewhere: a JSON Resume document and a printable CV. */
async function writeResume(db: DB, uid: number, origin: string, w: ZipWriter) {
  const resume = toJsonResume(await readOne(db, portfolioRead(db, { id: uid })), origin);
  w.textFile("resume.json", `${JSON.stringify(resume, null, 2)}\n`);
  w.textFile("cv.html", cvHtml(cvOf(resume)));
  await w.drain();
}

async function writeExport(env: Env, db: DB, u: UserRow, origin: string, w: ZipWriter) {
  const uid = u.id;
  w.textFile(
    "profile.json",
    `${JSON.stringify(
      {
        id: u.id,
        username: u.username,
        fullname: u.fullname,
        email: u.email,
        email_confirmed: u.confirmed,
        description: u.descr,
        avatar: u.avatar,
        cover: u.cover,
        created_at: iso(u.createdAt),
        following: u.followingNum,
        followers: u.followerNum,
        notes: u.noteNum,
        role: u.role,
        suspended_at: iso(u.suspendedAt),
        exported_at: new Date().toISOString(),
      },
      null,
      2,
    )}\n`,
  );

  await writeResume(db, uid, origin, w);

  // One Markdown file per note, a page of notes at a time.
  let after: NotePageRow | null = null;
  for (;;) {
    const rows = await notePage(db, uid, after);
    for (const n of rows)
      w.textFile(`notes/${new Date(n.createdAt).toISOString().slice(0, 10)}-${n.id}.md`, noteMarkdown(n));
    await w.drain();
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1];
  }

  await w.jsonArray(
    "replies.json",
    (a: { id: number; createdAt: number } | null) =>
      db
        .select({
          id: replies.id,
          noteId: replies.noteId,
          parentReplyId: replies.parentReplyId,
          content: replies.content,
          txt: replies.txt,
          createdAt: replies.createdAt,
        })
        .from(replies)
        .where(
          and(
            eq(replies.userId, uid),
            a ? sql`(${replies.createdAt}, ${replies.id}) > (${a.createdAt}, ${a.id})` : undefined,
          ),
        )
        .orderBy(asc(replies.createdAt), asc(replies.id))
        .limit(PAGE),
    (r) => ({
      id: r.id,
      note_id: r.noteId,
      parent_reply_id: r.parentReplyId,
      text: r.txt,
      content_markdown: htmlToMarkdown(r.content),
      created_at: iso(r.createdAt),
    }),
  );

  await w.jsonArray(
    "folders.json",
    (a: { id: number } | null) =>
      db
        .select()
        .from(folders)
        .where(and(eq(folders.userId, uid), a ? gt(folders.id, a.id) : undefined))
        .orderBy(asc(folders.id))
        .limit(PAGE),
    (f) => ({
      id: f.id,
      type: f.type,
      name: f.name,
      slug: f.slug,
      description: f.descr,
      link: f.link,
      logo: f.logo,
      notes: f.notenum,
      created_at: iso(f.createdAt),
    }),
  );

  // Each private mark (bookmarks) as its own file, read along its (user_id, kind, created_at) index.
  for (const { table: t, file } of MARKS)
    await w.jsonArray(
      file,
      (a: { kind: string; createdAt: number; targetId: number } | null) =>
        db
          .select({ kind: t.kind, targetId: t.targetId, createdAt: t.createdAt })
          .from(t)
          .where(
            and(
              eq(t.userId, uid),
              a
                ? sql`(${t.kind}, ${t.createdAt}, ${t.targetId}) > (${a.kind}, ${a.createdAt}, ${a.targetId})`
                : undefined,
            ),
          )
          .orderBy(asc(t.kind), asc(t.createdAt), asc(t.targetId))
          .limit(PAGE),
      (b) => ({ kind: b.kind, id: b.targetId, created_at: iso(b.createdAt) }),
    );

  await people(db, w, uid, "follows/following.json", follows, follows.followerId, follows.followeeId);
  await people(db, w, uid, "follows/followers.json", follows, follows.followeeId, follows.followerId);

  // Issue 16: the earlier versions of their notes, the people they block and mute (as Mastodon's
  // export has them), the reports they filed, and every moderation decision about their account or
  // content with its reason (the statements of reasons; the moderator is not named, as in the notice).
  await w.jsonArray(
    "note_versions.json",
    (a: { id: number; noteId: number; editedAt: number } | null) =>
      db
        .select({
          id: noteVersions.id,
          noteId: noteVersions.noteId,
          label: noteVersions.label,
          content: noteVersions.content,
          editedAt: noteVersions.editedAt,
        })
        .from(noteVersions)
        .innerJoin(notes, eq(notes.id, noteVersions.noteId))
        .where(
          and(
            eq(notes.userId, uid),
            a
              ? sql`(${noteVersions.noteId}, ${noteVersions.editedAt}, ${noteVersions.id}) > (${a.noteId}, ${a.editedAt}, ${a.id})`
              : undefined,
          ),
        )
        .orderBy(asc(noteVersions.noteId), asc(noteVersions.editedAt), asc(noteVersions.id))
        .limit(PAGE),
    (v) => ({
      note_id: v.noteId,
      label: v.label,
      content_markdown: htmlToMarkdown(v.content),
      written_at: iso(v.editedAt),
    }),
  );
  await people(db, w, uid, "blocks.json", blocks, blocks.blockerId, blocks.blockedId);
  await people(db, w, uid, "mutes.json", mutes, mutes.muterId, mutes.mutedId);
  await w.jsonArray(
    "reports.json",
    (a: { kind: string; targetId: number } | null) =>
      db
        .select()
        .from(reports)
        .where(
          and(
            eq(reports.userId, uid),
            a ? sql`(${reports.kind}, ${reports.targetId}) > (${a.kind}, ${a.targetId})` : undefined,
          ),
        )
        .orderBy(asc(reports.kind), asc(reports.targetId))
        .limit(PAGE),
    (r) => ({
      kind: r.kind,
      id: r.targetId,
      reason: REPORT_KINDS[r.reason as keyof typeof REPORT_KINDS] ?? "Other",
      created_at: iso(r.createdAt),
      closed_at: iso(r.closedAt),
    }),
  );
  await w.jsonArray(
    "moderation.json",
    (a: { id: number } | null) =>
      db
        .select()
        .from(moderationLog)
        .where(and(eq(moderationLog.ownerId, uid), a ? gt(moderationLog.id, a.id) : undefined))
        .orderBy(asc(moderationLog.id))
        .limit(PAGE),
    (m) => ({ action: m.action, kind: m.kind, id: m.targetId, reason: m.reason, at: iso(m.createdAt) }),
  );

  // The person's images, piped object by object from R2 (already compressed: stored, not deflated).
  let cursor: string | undefined;
  do {
    const listed = await env.IMAGES.list({ prefix: `u/${uid}/`, cursor, limit: 500 });
    for (const o of listed.objects) {
      const obj = await env.IMAGES.get(o.key);
      if (obj) await w.streamedFile(`images/${o.key.slice(`u/${uid}/`.length)}`, obj.body);
    }
    cursor = listed.truncated ? listed.cursor : undefined;
  } while (cursor);
  await w.end();
}

/**
 * The account's export: its username (for the file name) and the zip as a stream, produced while
 * the client downloads it. The profile row is read once, before the stream starts, and serves both.
 */
export async function exportZip(
  env: Env,
  db: DB,
  uid: number,
  /** The site's origin, for the links in the résumé. */
  origin: string,
  done: (p: Promise<void>) => void,
): Promise<{ username: string; stream: ReadableStream<Uint8Array> }> {
  const [u] = await db.select().from(users).where(eq(users.id, uid));
  if (!u) throw notFound("User not found");
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const w = new ZipWriter(writer, PAGE);
  done(
    writeExport(env, db, u, origin, w).catch(async (e) => {
      console.error("export failed", (e as Error)?.message ?? e);
      await writer.abort(e).catch(() => {});
    }),
  );
  return { username: u.username, stream: readable };
}
