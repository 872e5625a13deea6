// Remote Notes into NoteX: a reply to something here becomes a reply in its thread; a post that
// mentions someone here, or whose author someone here follows, becomes a note (so it reaches
// Following). Anything else is not stored (NoteX is not a relay). Remote HTML goes through the
// same sanitiser and limits as local input: through NoteInput and replyContent.
import { publishNow } from "../live/publish";
import type { Context, InboxContext } from "@fedify/fedify";
import { Link, Mention, type Note } from "@fedify/vocab";
import { dbFor, runBatch } from "../../db/client";
import { MAX_MENTIONS } from "../mentions/mentions.service";
import { mentionStatements } from "../notifications/notifications.links";
import { htmlToText, sanitizeHtml } from "../../lib/sanitize";
import { textToHtml } from "../../lib/text";
import { Label, NoteInput } from "../notes/notes.schema";
import { createNote } from "../notes/write.service";
import { createReply, editReply, MAX_REPLY } from "../replies/replies.service";
import type { FedData } from "./context";
import { localTarget } from "./inbox";
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

/** Mention tags are what notify on the fediverse: each person here named gets a mention. */
async function notifyMentioned(
  ctx: Ctx,
  uid: number,
  row: { tblname: "note" | "reply"; targetId: number },
  ids: number[],
  html: string,
) {
  if (!ids.length) return;
  const db = dbFor(ctx.data.env.DB);
  await runBatch(
    db,
    mentionStatements(db, { actorId: uid, ...row, userIds: ids, extra: htmlToText(html).slice(0, 100) }),
  );
}

async function followedHere(ctx: Ctx, uid: number) {
  const row = await ctx.data.env.DB.prepare("select 1 as x from follows where followee_id = ? limit 1")
    .bind(uid)
    .first();
  return !!row;
}

export async function receiveNote(ctx: Ctx, uid: number, note: Note) {
  const env = ctx.data.env;
  const id = note.id as URL;
  if (await env.DB.prepare("select 1 from remote_objects where uri = ?").bind(id.href).first()) return;
  const html = note.content?.toString() ?? "";
  const db = dbFor(env.DB);
  const parent = await localTarget(ctx, note.replyTargetId);
  if (parent) {
    const reply = await createReply(db, uid, parent.kind === "note" ? -parent.id : parent.id, fitted(html, MAX_REPLY));
    await rememberObject(env, id, "reply", reply.id, uid, objectUrlOf(note.url));
    await notifyMentioned(ctx, uid, { tblname: "reply", targetId: reply.id }, await localMentions(ctx, note), html);
    await publishNow(env, { notex: "reply", op: "create", uid, id: reply.id, origin: ctx.canonicalOrigin });
    return;
  }
  if (note.replyTargetId) return;
  const mentioned = await localMentions(ctx, note);
  if (!mentioned.length && !(await followedHere(ctx, uid))) return;
  const saved = await keepNote(ctx, uid, id, note, html);
  if (!saved) return;
  await notifyMentioned(ctx, uid, { tblname: "note", targetId: saved }, mentioned, html);
  // Remote posts reach the streams of the people here who follow their author, as local ones do.
  await publishNow(env, { notex: "note", op: "create", uid, id: saved, origin: ctx.canonicalOrigin });
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

/** A remote post as a note of its author here (sanitised, fitted, pictures proxied); its id, or null. */
async function keepNote(ctx: Context<FedData>, uid: number, id: URL, note: Note, raw: string) {
  const env = ctx.data.env;
  const { label, html } = await labelled(ctx, note, raw);
  const data = NoteInput.safeParse({ label, content: fitted(html, MAX_NOTE_TEXT) });
  if (!data.success) return null;
  const saved = await createNote(env, dbFor(env.DB), uid, data.data, ctx.canonicalOrigin);
  await rememberObject(env, id, "note", saved.note.id, uid, objectUrlOf(note.url));
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
  const { imgs, alts } = await remoteImages(ctx, note);
  const db = ctx.data.env.DB;
  await db.batch([
    db.prepare("update notes set imgs = ?, alts = ? where id = ? and user_id = ?").bind(imgs, alts, noteId, uid),
    // The proxy serves these pictures while the note is stored (media.ts).
    ...mediaStatements(db, uid, noteId, imgs ? imgs.split(";") : []),
  ]);
}

/** Update(Note): the stored copy takes the new text (only its own author's: user_id in the where). */
export async function reviseNote(ctx: Ctx, uid: number, note: Note) {
  const env = ctx.data.env;
  const stored = await env.DB.prepare("select kind, row_id from remote_objects where uri = ? and user_id = ?")
    .bind(note.id?.href, uid)
    .first<{ kind: string; row_id: number }>();
  if (!stored) return;
  const raw = note.content?.toString() ?? "";
  if (stored.kind === "reply") {
    await editReply(dbFor(env.DB), uid, stored.row_id, fitted(raw, MAX_REPLY));
    return;
  }
  const { label, html } = await labelled(ctx, note, raw);
  const data = NoteInput.safeParse({ label, content: fitted(html, MAX_NOTE_TEXT) });
  if (!data.success || stored.kind !== "note") return;
  await env.DB.prepare("update notes set content = ?, txt = ?, updated_at = ? where id = ? and user_id = ?")
    .bind(data.data.content, data.data.txt, Date.now(), stored.row_id, uid)
    .run();
  await keepImages(ctx, uid, stored.row_id, note);
}
