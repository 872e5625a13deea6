// Remote Notes into NoteX: a reply to something here becomes a reply in its thread; a post that
// mentions someone here, or whose author someone here follows, becomes a note (so it reaches
// Following). Anything else is not stored (NoteX is not a relay). Remote HTML goes through the
// same sanitiser and limits as local input: through NoteInput and replyContent.
import type { Context, InboxContext } from "@fedify/fedify";
import { Link, Mention, type Note } from "@fedify/vocab";
import { dbFor } from "../../db/client";
import { MAX_MENTIONS } from "../mentions/mentions.service";
import { htmlToText, sanitizeHtml } from "../../lib/sanitize";
import { textToHtml } from "../../lib/text";
import { Label, NoteInput } from "../notes/notes.schema";
import { type SaveResult, storeQuietly } from "../notes/write.service";
import { drizzleRead } from "../../db/reads";
import { insertWhere } from "../../db/insert";
import { remoteObjects } from "../../db/schema/federation";
import { type SQL, sql } from "drizzle-orm";
import type { ActionContext } from "./federate";
import { MAX_REPLY } from "../replies/replies.service";
import { editNoteAction, editReplyAction } from "../notes/edit.action";
import { replyAction } from "../replies/reply.action";
import { postAction } from "../notes/post.action";
import { inboundAction } from "./inbound";
import type { FedData } from "./context";
import { localTarget } from "./targets";
import { objectUrlOf, rememberObject } from "./remote";
import { remoteImages } from "./attachments";
import { mediaStatements } from "./media";
import { labelLine, XLABEL_REL } from "./objects";

type Ctx = InboxContext<FedData>;

/** The x-label every remote note carries (NoteX requires one; other servers have none). */
export const REMOTE_LABEL = "fediverse";
const MAX_NOTE_TEXT = 2800;

/** Sanitised HTML within `max` characters of text: longer posts keep their first paragraphs as text. */
function fitted(html: string, max: number): string {
  const clean = sanitizeHtml(html);
  const txt = htmlToText(clean);
  return [...txt].length <= max ? clean : textToHtml(`${[...txt].slice(0, max - 1).join("")}…`);
}

/** The people here that the note's Mention tags name (as many as a local note notifies). */
async function localMentions(ctx: Ctx, note: Note): Promise<number[]> {
  const ids: number[] = [];
  for await (const tag of note.getTags(ctx)) {
    const parsed = tag instanceof Mention && tag.href ? ctx.parseUri(tag.href) : null;
    if (parsed?.type !== "actor" || !/^\d+$/.test(parsed.identifier)) continue;
    if (!ids.includes(Number(parsed.identifier))) ids.push(Number(parsed.identifier));
    if (ids.length === MAX_MENTIONS) break;
  }
  return ids;
}

/**
 * The object's id kept for the row an action makes from it, in that action's own batch: a refused
 * write (a block, a missing parent) keeps nothing, and a kept row is never without its mapping.
 */
const remembering =
  (action: ActionContext, uri: URL, kind: "note" | "reply", uid: number, note: Note) => (made: SQL<number>) =>
    drizzleRead(
      action.db,
      {
        kept: insertWhere(
          action.db,
          remoteObjects,
          { uri: uri.href, kind, rowId: made, url: objectUrlOf(note.url), userId: uid, createdAt: Date.now() },
          sql`${made} is not null`,
        ).onConflictDoNothing(),
      },
      () => undefined,
    );

async function followedHere(ctx: Ctx, uid: number) {
  const row = await ctx.data.env.DB.prepare("select 1 as x from follows where followee_id = ? limit 1")
    .bind(uid)
    .first();
  return !!row;
}

/**
 * A Create(Note): a reply to something here goes through the reply action, a post whose author
 * someone here follows (or that names someone here) through the post action, as the same act made
 * here would (inbound: streamed here, delivered nowhere). Mention tags say whom it notifies.
 */
export async function receiveNote(ctx: Ctx, uid: number, note: Note) {
  const env = ctx.data.env;
  const id = note.id as URL;
  if (await env.DB.prepare("select 1 from remote_objects where uri = ?").bind(id.href).first()) return;
  const html = note.content?.toString() ?? "";
  const parent = await localTarget(ctx, note.replyTargetId);
  const mentioned = await localMentions(ctx, note);
  if (parent) {
    const action = inboundAction(ctx);
    const kept = remembering(action, id, "reply", uid, note);
    await replyAction(action, uid, parent, fitted(html, MAX_REPLY), kept, mentioned);
    return;
  }
  if (note.replyTargetId) return;
  if (!mentioned.length && !(await followedHere(ctx, uid))) return;
  await keepNote(ctx, uid, id, note, html, mentioned);
}

/**
 * The note's x-label and text when it came from another NoteX (its Link tag with NoteX's relation,
 * and the visible "[label]" line taken off the top, objects.ts); else the fediverse label and the
 * text as it is.
 */
async function labelled(ctx: Context<FedData>, note: Note, html: string): Promise<{ label: string; html: string }> {
  for await (const tag of note.getTags(ctx)) {
    if (!(tag instanceof Link) || !tag.rels.includes(XLABEL_REL)) continue;
    const label = Label.safeParse(tag.name?.toString() ?? "");
    if (!label.success) break;
    const line = labelLine(label.data);
    return { label: label.data, html: line && html.startsWith(line) ? html.slice(line.length) : html };
  }
  return { label: REMOTE_LABEL, html };
}

/**
 * A remote post as a note of its author here (sanitised, fitted, pictures proxied); its id, or null.
 * `mentioned`: the people here a Create names, told through the post action; without it (an older
 * post read in) it is only stored.
 */
async function keepNote(ctx: Context<FedData>, uid: number, id: URL, note: Note, raw: string, mentioned?: number[]) {
  const env = ctx.data.env;
  const { label, html } = await labelled(ctx, note, raw);
  const data = NoteInput.safeParse({ label, content: fitted(html, MAX_NOTE_TEXT) });
  if (!data.success) return null;
  let saved: SaveResult;
  if (mentioned) {
    const action = inboundAction(ctx);
    saved = (await postAction(action, uid, data.data, remembering(action, id, "note", uid, note), mentioned)).saved;
  } else {
    saved = await storeQuietly(env, dbFor(env.DB), uid, data.data, ctx.canonicalOrigin);
    await rememberObject(env, id, "note", saved.note.id, uid, objectUrlOf(note.url));
  }
  await keepImages(ctx, uid, saved.note.id, note);
  return saved.note.id;
}

/**
 * An older public post read from its author's outbox when they were first found here (backfill.ts):
 * stored the way an inbound Create stores a note, but without the follow-or-mention gate (their
 * profile shows it) and without notifying anyone (it is not news). It keeps its own date, so a
 * profile and a later follower's Following list it where it belongs. Replies are left out.
 */
export async function keepOlderNote(ctx: Context<FedData>, uid: number, note: Note) {
  const env = ctx.data.env;
  const id = note.id;
  if (!id || note.replyTargetId) return;
  if (await env.DB.prepare("select 1 from remote_objects where uri = ?").bind(id.href).first()) return;
  const saved = await keepNote(ctx, uid, id, note, note.content?.toString() ?? "");
  const published = note.published?.epochMilliseconds;
  if (saved && published && published < Date.now())
    await env.DB.prepare("update notes set created_at = ? where id = ? and user_id = ?")
      .bind(published, saved, uid)
      .run();
}

/** A remote note's pictures, proxied, with their alt text (attachments.ts). */
async function keepImages(ctx: Context<FedData>, uid: number, noteId: number, note: Note) {
  const { imgs, alts, dims } = await remoteImages(ctx, note);
  const db = ctx.data.env.DB;
  await db.batch([
    db
      .prepare("update notes set imgs = ?, alts = ?, dims = ? where id = ? and user_id = ?")
      .bind(imgs, alts, dims, noteId, uid),
    // The proxy serves these pictures while the note is stored (media.ts).
    ...mediaStatements(db, uid, noteId, imgs ? imgs.split(";") : []),
  ]);
}

/**
 * Update(Note): the stored copy takes the new text through the edit action (only its own author's:
 * the action's write names the author), as its author's edit here would; Mention tags say whom
 * it newly names.
 */
export async function reviseNote(ctx: Ctx, uid: number, note: Note) {
  const env = ctx.data.env;
  const stored = await env.DB.prepare("select kind, row_id from remote_objects where uri = ? and user_id = ?")
    .bind(note.id?.href, uid)
    .first<{ kind: string; row_id: number }>();
  if (!stored) return;
  const raw = note.content?.toString() ?? "";
  const mentioned = await localMentions(ctx, note);
  if (stored.kind === "reply") {
    await editReplyAction(inboundAction(ctx), uid, stored.row_id, fitted(raw, MAX_REPLY), undefined, mentioned);
    return;
  }
  const { label, html } = await labelled(ctx, note, raw);
  const data = NoteInput.safeParse({ label, content: fitted(html, MAX_NOTE_TEXT) });
  if (!data.success || stored.kind !== "note") return;
  // Its pictures are its server's: kept here by keepImages, not by the edit.
  const kept = { images: true, video: true };
  await editNoteAction(inboundAction(ctx), uid, stored.row_id, data.data, kept, undefined, mentioned);
  await keepImages(ctx, uid, stored.row_id, note);
}
