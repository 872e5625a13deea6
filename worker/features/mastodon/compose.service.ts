// What an app posts (POST/PUT /api/v1/statuses) becomes a NoteX note, reply or quote, written by the
// same services as the web's composer, with the same rules and messages.
import { and, eq, gt, lt, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { drizzleRead, mapRead, pairOf } from "../../db/reads";
import { mastoIdempotency } from "../../db/schema/oauth";
import type { DB, Env } from "../../env";

/** Who posts: the token's person. */
type Author = { id: number };
import { AppError, fieldErrors } from "../../lib/errors";
import { NoteInput } from "../notes/notes.schema";
import type { ActionContext } from "../federation/federate";
import { postAction } from "../notes/post.action";
import { quoteAction } from "../notes/renote.action";
import { deletePost } from "../notes/delete.action";
import { editNoteAction, editReplyAction } from "../notes/edit.action";
import { replyAction } from "../replies/reply.action";
import { htmlToText, sanitizeHtml } from "../../lib/sanitize";
import { MEDIA_ID, type StatusRef, statusRef } from "./serialise";
import {
  labelFor,
  notFoundStatus,
  refsRead,
  refsWhere,
  madeWhere,
  textOf,
  textToHtml,
  statusRead,
} from "./statuses.service";
import { insertWhere } from "../../db/insert";

const idish = z.union([z.string().max(30), z.number()]).transform(String);
/** A Mastodon app's boolean: JSON true/false, or a form's "true"/"1". */
export const bool = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0", ""])])
  .transform((v) => v === true || v === "true" || v === "1");
const many = z
  .union([idish, z.array(idish)])
  .optional()
  .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]));

export const StatusInput = z.object({
  status: z.string().max(200_000).default(""),
  media_ids: many,
  in_reply_to_id: idish.optional().nullable(),
  quoted_status_id: idish.optional().nullable(),
  visibility: z.string().max(20).optional().nullable(),
  spoiler_text: z.string().max(10_000).optional().nullable(),
  sensitive: bool.optional(),
  language: z.string().max(10).optional().nullable(),
  poll: z.unknown().optional(),
  scheduled_at: z.string().optional().nullable(),
  media_attributes: z.unknown().optional(),
});
export type StatusData = z.output<typeof StatusInput>;

const unprocessable = (message: string) => new AppError(422, "invalid_input", `Validation failed: ${message}`);

/** What NoteX cannot keep is refused with words, never dropped without telling. */
function refuseUnsupported(data: StatusData) {
  if (data.spoiler_text?.trim())
    throw unprocessable(
      "NoteX has no content warnings: post without spoiler_text (the text would be shown to everyone).",
    );
  if (data.poll !== undefined && data.poll !== null) throw unprocessable("NoteX has no polls.");
  if (data.scheduled_at) throw unprocessable("NoteX cannot schedule posts.");
  const v = data.visibility ?? "public";
  // Every NoteX note is public; "unlisted" is taken as public (the status says so), the rest is refused.
  if (v !== "public" && v !== "unlisted")
    throw unprocessable("NoteX has only public posts: followers-only and direct messages are not available.");
}

/** Image URLs of the person's own uploaded media (POST /api/v2/media answers the slot's file name as id). */
const imagesOf = (uid: number, ids: string[]) =>
  ids.map((id) => {
    if (!MEDIA_ID.test(id)) throw unprocessable(`media ${id} not found`);
    return `/img/u/${uid}/note/${id}`;
  });

/**
 * Each image's alt text: the description given with the media (kept on the R2 object), or one
 * media_attributes names for it (how apps change it while editing a status).
 */
async function altsOf(env: Env, uid: number, ids: string[], attributes: unknown): Promise<string[]> {
  const given = new Map<string, string>();
  if (Array.isArray(attributes))
    for (const a of attributes)
      if (a && typeof a === "object" && typeof a.id === "string" && typeof a.description === "string")
        given.set(a.id, a.description);
  return Promise.all(
    ids.map(async (id) => given.get(id) ?? (await env.IMAGES.head(`u/${uid}/note/${id}`))?.customMetadata?.alt ?? ""),
  );
}

/** The note body NoteX's composer would send, checked by its own schema (limits and messages). */
function noteData(html: string, label: string, imgs: string[], folders: number[], alts: string[]) {
  const parsed = NoteInput.safeParse({ label, content: html, imgs, folders, alts });
  if (!parsed.success) throw unprocessable(Object.values(fieldErrors(parsed.error))[0] ?? "invalid status");
  return parsed.data;
}

/** What posting answers: the status's ref, and the status itself, read back by the write's batch. */
export interface Posted {
  ref: StatusRef;
  status: Record<string, unknown>;
}

/**
 * Posts a status: a reply (in_reply_to_id), a quote (quoted_status_id) or a note, through the
 * action each is, whose batch also holds the Idempotency-Key's record and the status read back.
 */
export async function postStatus(
  ctx: ActionContext,
  author: Author,
  data: StatusData,
  key: string | undefined,
): Promise<Posted> {
  refuseUnsupported(data);
  const { db, origin } = ctx;
  // The key remembered and the status read back, naming the new row as the batch does.
  const after = (kind: StatusRef["kind"]) => (made: SQL<number>) => {
    const statusId = sql`cast(${made} as text)`;
    const remembered = drizzleRead(
      db,
      { remembered: rememberStatements(db, author.id, key, statusId, made) },
      () => undefined,
    );
    return mapRead(pairOf(remembered, statusRead(db, origin, author.id, madeWhere(kind, made))), ([, s]) => s);
  };
  const text = data.status;
  if (data.in_reply_to_id) {
    const parent = statusRef(data.in_reply_to_id);
    if (!parent) throw notFoundStatus();
    if (data.media_ids.length) throw unprocessable("NoteX replies cannot carry images.");
    const { reply, read } = await replyAction(ctx, author.id, parent, textToHtml(text), after("reply"));
    return { ref: { kind: "reply", id: reply.id }, status: read };
  }
  if (data.quoted_status_id) {
    const target = statusRef(data.quoted_status_id);
    if (target?.kind !== "note") throw notFoundStatus();
    const html = sanitizeHtml(textToHtml(text));
    const txt = htmlToText(html);
    if (!txt.trim()) throw unprocessable("Please enter your note.");
    if ([...txt].length > 2800) throw unprocessable("Note should be less than or equal 2800 character long.");
    const { done, read } = await quoteAction(ctx, author.id, target.id, html, txt, after("note"));
    return { ref: { kind: "note", id: done.id }, status: read };
  }
  const imgs = imagesOf(author.id, data.media_ids);
  const alts = await altsOf(ctx.env, author.id, data.media_ids, data.media_attributes);
  const body = noteData(textToHtml(text), labelFor(text), imgs, [], alts);
  const { saved, read } = await postAction(ctx, author.id, body, after("note"));
  return { ref: { kind: "note", id: saved.note.id }, status: read };
}

/**
 * PUT /api/v1/statuses/:id: new text (and media) for the person's own note or reply, through the
 * edit action, with the status as it is then read in its batch; the x-label and folders stay as
 * they are, unread.
 */
export async function editStatus(ctx: ActionContext, author: Author, ref: StatusRef, data: StatusData) {
  refuseUnsupported(data);
  const status = statusRead(ctx.db, ctx.origin, author.id, refsWhere([ref]));
  const html = textToHtml(data.status);
  if (ref.kind === "reply") return (await editReplyAction(ctx, author.id, ref.id, html, status)).read;
  // No media_ids: the images stay as they are (an app that shows none sends none).
  const images = data.media_ids.length > 0;
  const imgs = images ? imagesOf(author.id, data.media_ids) : [];
  const alts = images ? await altsOf(ctx.env, author.id, data.media_ids, data.media_attributes) : [];
  // The label only lets the body through NoteX's own checks: the note's own is kept.
  const body = noteData(html, "note", imgs, [], alts);
  const kept = { labelAndFolders: true, images: !images, video: true };
  return (await editNoteAction(ctx, author.id, ref.id, body, kept, status)).read;
}

/**
 * DELETE /api/v1/statuses/:id: the person's own note or reply, through the delete action, whose
 * batch first reads the status as it was (Mastodon answers it with its text, so an app can offer
 * "delete and redraft").
 */
export async function deleteStatus(ctx: ActionContext, author: Author, ref: StatusRef, origin: string) {
  const done = await deletePost(ctx, author.id, ref, refsRead(ctx.db, origin, author.id, refsWhere([ref])));
  const [status] = done.before.values();
  if (!status) throw notFoundStatus();
  return { ...status, text: textOf(String(status.content ?? "")) };
}

const KEY_TTL_MS = 60 * 60 * 1000;

/** The status an Idempotency-Key already made (within the hour), or null. */
export async function idempotent(db: DB, uid: number, key: string | undefined): Promise<StatusRef | null> {
  if (!key) return null;
  const [row] = await db
    .select({ id: mastoIdempotency.statusId })
    .from(mastoIdempotency)
    .where(
      and(
        eq(mastoIdempotency.userId, uid),
        eq(mastoIdempotency.key, key.slice(0, 200)),
        gt(mastoIdempotency.createdAt, Date.now() - KEY_TTL_MS),
      ),
    )
    .limit(1);
  return row ? statusRef(row.id) : null;
}

/**
 * Remembers the key's status (`statusId`: SQL, as the write's batch names it; `when`: null while
 * the write was refused, which then remembers nothing); the person's keys older than the hour go
 * in the same batch.
 */
function rememberStatements(db: DB, uid: number, key: string | undefined, statusId: SQL, made?: SQL) {
  if (!key) return [];
  const now = Date.now();
  return [
    db
      .delete(mastoIdempotency)
      .where(and(eq(mastoIdempotency.userId, uid), lt(mastoIdempotency.createdAt, now - KEY_TTL_MS))),
    insertWhere(
      db,
      mastoIdempotency,
      { userId: uid, key: key.slice(0, 200), statusId, createdAt: now },
      sql`${made ?? sql`1`} is not null`,
    ).onConflictDoUpdate({
      target: [mastoIdempotency.userId, mastoIdempotency.key],
      set: { statusId: sql`excluded.status_id`, createdAt: now },
    }),
  ];
}
