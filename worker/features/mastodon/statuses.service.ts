// Statuses over NoteX's notes and replies: reading them as Mastodon entities in one batch, and
// turning what an app posts into the note, reply or quote NoteX's own services write.
import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import { notes } from "../../db/schema/notes";
import { replies } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { AppError } from "../../lib/errors";
import { PRESET_LABELS } from "../notes/notes.constants";
import { type Hydrated, hydrated, NOTES, toNoteJson } from "../notes/notes.json";
import type { NoteJson } from "../notes/notes.types";
import { type ReplyJson, select as replySelect, toJson as replyJson } from "../replies/replies.service";
import { openable } from "../safety/visibility";
import {
  ctxOf,
  ctxStatements,
  labelTag,
  loadCtx,
  noteRefs,
  noteStatus,
  refIds,
  replyStatus,
  type StatusRef,
} from "./serialise";

type Status = Record<string, unknown>;

/** Plain text as an app sends it, as the HTML NoteX stores (paragraphs and line breaks; sanitised later). */
export function textToHtml(text: string): string {
  const esc = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return esc
    .split(/\n{2,}/)
    .map((p) => `<p>${p.replace(/\n/g, "<br>")}</p>`)
    .join("");
}

/** The x-label a status gets: the first preset label the text names as a hashtag (#howto → "how to"), else "note". */
export function labelFor(text: string): string {
  const byTag = new Map(PRESET_LABELS.map((l) => [labelTag(l), l]));
  for (const m of text.matchAll(/(?:^|[^\p{L}\p{N}_&/])#([\p{L}\p{N}_]{1,50})/gu)) {
    const label = byTag.get(m[1].toLowerCase());
    if (label) return label;
  }
  return "note";
}

/** Notes and replies by id, each open to the viewer, in one round trip (unopenable ones are left out). */
export async function loadRefs(db: DB, refs: StatusRef[], viewer: number | null) {
  const noteIds = refIds(refs, "note");
  const replyIds = refIds(refs, "reply");
  const [noteRows, replyRows] = await db.batch([
    db
      .select(hydrated(viewer))
      .from(notes)
      .innerJoin(users, eq(users.id, notes.userId))
      .where(and(inArray(notes.id, noteIds.length ? noteIds : [0]), openable(NOTES, viewer))),
    replySelect(db, viewer)
      .where(and(inArray(replies.id, replyIds.length ? replyIds : [0]), openable(sql`"replies"`, viewer)))
      .orderBy(asc(replies.createdAt), asc(replies.id)),
  ]);
  const parents = await parentAuthors(
    db,
    replyRows.map((r) => r.parent),
  );
  return {
    notes: new Map((noteRows as Hydrated[]).map((r) => [r.id, toNoteJson(r, viewer)])),
    replies: new Map(replyRows.map((r) => [r.id, replyJson(r, viewer)])),
    parents,
  };
}

/** Who wrote each reply's parent (a note for parent < 0, else a reply): in_reply_to_account_id. */
async function parentAuthors(db: DB, parentIds: number[]) {
  const noteIds = parentIds.filter((p) => p < 0).map((p) => -p);
  const replyIds = parentIds.filter((p) => p > 0);
  if (!noteIds.length && !replyIds.length) return new Map<number, number>();
  const [n, r] = await db.batch([
    db
      .select({ id: notes.id, uid: notes.userId })
      .from(notes)
      .where(inArray(notes.id, noteIds.length ? noteIds : [0])),
    db
      .select({ id: replies.id, uid: replies.userId })
      .from(replies)
      .where(inArray(replies.id, replyIds.length ? replyIds : [0])),
  ]);
  return new Map([...n.map((x) => [-x.id, x.uid] as const), ...r.map((x) => [x.id, x.uid] as const)]);
}

/** Notes and replies as statuses, in the order given, with their accounts and the viewer's bookmarks. */
type Item = { note: NoteJson } | { reply: ReplyJson; parentAuthor: number | null };

export async function toStatuses(db: DB, origin: string, viewer: number | null, items: Item[]): Promise<Status[]> {
  const notesIn = items.flatMap((i) => ("note" in i ? [i.note] : []));
  const { userIds, refs } = noteRefs(notesIn);
  for (const i of items)
    if ("reply" in i) {
      userIds.push(i.reply.user.id);
      refs.push({ kind: "reply", id: i.reply.id });
    }
  const ctx = await loadCtx(db, origin, userIds, viewer, refs);
  return items.map((i) => ("note" in i ? noteStatus(i.note, ctx) : replyStatus(i.reply, ctx, i.parentAuthor)));
}

/** Statuses for refs, in their order, leaving out what the viewer may not open. */
export async function statusesOf(db: DB, origin: string, viewer: number | null, refs: StatusRef[]) {
  const found = await loadRefs(db, refs, viewer);
  const items = refs.flatMap((r): Item[] => {
    if (r.kind === "note") {
      const note = found.notes.get(r.id);
      return note ? [{ note }] : [];
    }
    const reply = found.replies.get(r.id);
    return reply ? [{ reply, parentAuthor: found.parents.get(reply.parent) ?? null }] : [];
  });
  return toStatuses(db, origin, viewer, items);
}

/**
 * The statements that read back the note status a write just made in the same batch (`id`: SQL
 * naming it there; a batch's SELECT sees the batch's own writes), as its author sees it: the note
 * with its counts and the author's marks, the accounts it shows (its author, and a quote's
 * original's) and the author's bookmarks among them. `answer` makes the status from their results.
 */
export function noteReadBack(db: DB, author: number, id: SQL<number>) {
  const shown = sql`(select ${id} union select renote_id from notes where id = ${id})`;
  const statements = [
    db.select(hydrated(author)).from(notes).innerJoin(users, eq(users.id, notes.userId)).where(eq(notes.id, id)),
    ...ctxStatements(db, author, sql`(select user_id from notes where id in ${shown})`, shown, []),
  ];
  const answer = (results: unknown[], origin: string): Status => {
    const [[row], ...ctx] = results as [Hydrated[], ...unknown[]];
    if (!row) throw notFoundStatus();
    return noteStatus(toNoteJson(row, author), ctxOf(origin, ctx));
  };
  return { statements, answer };
}

export const notFoundStatus = () => new AppError(404, "not_found", "Record not found");

/** One status, or Mastodon's 404. */
export async function statusOf(db: DB, origin: string, viewer: number | null, ref: StatusRef | null) {
  const [status] = ref ? await statusesOf(db, origin, viewer, [ref]) : [];
  if (!status) throw notFoundStatus();
  return status;
}

const THREAD_MAX = 200;

/**
 * A thread around a status: a note's replies all come after it; a reply has its note and parent
 * chain before it and its own sub-thread after it. Oldest first, as Mastodon's context.
 */
export async function threadOf(db: DB, origin: string, viewer: number | null, ref: StatusRef) {
  let noteId = ref.id;
  if (ref.kind === "reply") {
    const [row] = await db.select({ noteId: replies.noteId }).from(replies).where(eq(replies.id, ref.id)).limit(1);
    if (!row) throw notFoundStatus();
    noteId = row.noteId;
  }
  const rows = await db
    .select({ id: replies.id, parent: replies.parent })
    .from(replies)
    .where(eq(replies.noteId, noteId))
    .orderBy(asc(replies.createdAt), asc(replies.id))
    .limit(THREAD_MAX);
  const parentOf = new Map(rows.map((r) => [r.id, r.parent]));
  const ancestors: StatusRef[] = [];
  const descendants: StatusRef[] = [];
  if (ref.kind === "note") descendants.push(...rows.map((r) => ({ kind: "reply" as const, id: r.id })));
  else {
    for (let p = parentOf.get(ref.id); p !== undefined && p > 0; p = parentOf.get(p))
      ancestors.unshift({ kind: "reply", id: p });
    ancestors.unshift({ kind: "note", id: noteId });
    const under = new Set([ref.id]);
    for (const r of rows)
      if (under.has(r.parent)) {
        under.add(r.id);
        descendants.push({ kind: "reply", id: r.id });
      }
  }
  const all = await statusesOf(db, origin, viewer, [...ancestors, ...descendants]);
  const ids = new Set(ancestors.map((a) => (a.kind === "note" ? String(a.id * 2) : String(a.id * 2 + 1))));
  return {
    ancestors: all.filter((s) => ids.has(s.id as string)),
    descendants: all.filter((s) => !ids.has(s.id as string)),
  };
}
