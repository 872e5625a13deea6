// Statuses over NoteX's notes and replies: reading them as Mastodon entities in one batch, and
// turning what an app posts into the note, reply or quote NoteX's own services write.
import { and, asc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { bindPlan, namedObjects, planFrom } from "../../db/plan";
import { known, mapRead, pairOf, type Read, readOne, readTogether } from "../../db/reads";
import { notes } from "../../db/schema/notes";
import { replies } from "../../db/schema/social";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { AppError } from "../../lib/errors";
import { PRESET_LABELS } from "../notes/notes.constants";
import { historyRead } from "../notes/read.service";
import { type Hydrated, hydrated, NOTES, toNoteJson } from "../notes/notes.json";
import { select as replySelect, toJson as replyJson } from "../replies/replies.service";
import { openable } from "../safety/visibility";
import { addNote, addReply, emptyCtx, replyStatusColumns, statusColumns } from "./columns";
import {
  iso,
  labelTag,
  noteStatus,
  noteStatusId,
  refIds,
  replyStatus,
  replyStatusId,
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

/** Which notes and which replies a read takes: SQL over `notes` and over `replies` (ids, or a page's subquery). */
export interface RefsWhere {
  notes: SQL;
  replies: SQL;
}

/**
 * The two statements that read notes and replies as statuses, each open to the viewer: one per
 * table, whose rows carry all a status shows (accounts, bookmarks, a reply's parent author). The
 * viewer is an id in them, so they go as they are into a drizzle batch (a write's, which reads
 * back what it made) or, as plans, into any batch.
 */
function statusSelects(db: DB, viewer: number | null, where: RefsWhere) {
  return {
    notes: db
      .select({ ...hydrated(viewer), ...statusColumns(viewer) })
      .from(notes)
      .innerJoin(users, eq(users.id, notes.userId))
      .where(and(where.notes, openable(NOTES, viewer))),
    replies: replySelect(db, viewer, replyStatusColumns(viewer)).where(
      and(where.replies, openable(sql`"replies"`, viewer)),
    ),
  };
}

type ReplyRow = Parameters<typeof replyJson>[0] & { mParentAuthor: number | null };

/** Statuses from statusSelects' rows, keyed "note:id" / "reply:id". */
function statusesFromRows(origin: string, viewer: number | null, noteRows: Hydrated[], replyRows: ReplyRow[]) {
  const ctx = emptyCtx(origin);
  const notesIn = noteRows.map((row) => {
    const note = toNoteJson(row, viewer);
    addNote(ctx, note, row);
    return note;
  });
  const repliesIn = replyRows.map((row) => {
    const reply = replyJson(row, viewer);
    addReply(ctx, reply, row);
    return { reply, parentAuthor: row.mParentAuthor };
  });
  return new Map<string, Status>([
    ...notesIn.map((note) => [`note:${note.id}`, noteStatus(note, ctx)] as const),
    ...repliesIn.map((x) => [`reply:${x.reply.id}`, replyStatus(x.reply, ctx, x.parentAuthor)] as const),
  ]);
}

/**
 * Notes and replies as statuses (statusSelects), keyed "note:id" / "reply:id", so a caller can put
 * them in its own batch behind whatever names the ids.
 */
export function refsRead(
  db: DB,
  origin: string,
  viewer: number | null,
  where: RefsWhere,
  /** Values of placeholders in `where`'s subqueries. */
  values: Record<string, unknown> = {},
): Read<Map<string, Status>> {
  const selects = statusSelects(db, viewer, where);
  const noteQ = planFrom(selects.notes);
  const replyQ = planFrom(selects.replies);
  return {
    statements: [bindPlan(db, noteQ, { ...values, viewer }), bindPlan(db, replyQ, { ...values, viewer })],
    value: ([n, r]) =>
      statusesFromRows(
        origin,
        viewer,
        namedObjects<Hydrated>(noteQ, n.results),
        namedObjects<ReplyRow>(replyQ, r.results),
      ),
  };
}

/** The refs' statuses in their order, leaving out what the viewer may not open. */
export const inOrder = (refs: StatusRef[], found: Map<string, Status>) =>
  refs.flatMap((r): Status[] => {
    const status = found.get(`${r.kind}:${r.id}`);
    return status ? [status] : [];
  });

/** Where clauses for refs given by id (at most 90 of each kind). */
export function refsWhere(refs: StatusRef[]): RefsWhere {
  const noteIds = refIds(refs, "note");
  const replyIds = refIds(refs, "reply");
  return {
    notes: inArray(notes.id, noteIds.length ? noteIds : [0]),
    replies: inArray(replies.id, replyIds.length ? replyIds : [0]),
  };
}

/** Statuses for refs, in their order, leaving out what the viewer may not open: one round trip. */
export async function statusesOf(db: DB, origin: string, viewer: number | null, refs: StatusRef[]) {
  return inOrder(refs, await readOne(db, refsRead(db, origin, viewer, refsWhere(refs))));
}

/** Where clauses for the one note or reply `id` names (SQL: a write's batch names what it made). */
export function madeWhere(kind: StatusRef["kind"], id: SQL<number>): RefsWhere {
  return kind === "note"
    ? { notes: sql`${notes.id} = ${id}`, replies: inArray(replies.id, [0]) }
    : { notes: inArray(notes.id, [0]), replies: sql`${replies.id} = ${id}` };
}

export const notFoundStatus = () => new AppError(404, "not_found", "Record not found");

/**
 * A write, then the one status `where` names as the viewer sees it after the write, in one batch
 * (a batch's SELECT sees the batch's own writes): the write's refusal first, from its own rows;
 * then Mastodon's 404 when the status is not there for the viewer.
 */
export async function writeThenStatus<T>(
  db: DB,
  origin: string,
  viewer: number,
  write: Read<T>,
  where: RefsWhere,
): Promise<{ done: T; status: Status }> {
  const [done, status] = await readOne(db, pairOf(write, statusRead(db, origin, viewer, where)));
  return { done, status };
}

/** The one status `where` names as the viewer sees it, for a batch; Mastodon's 404 when it is not there. */
export const statusRead = (db: DB, origin: string, viewer: number, where: RefsWhere): Read<Status> =>
  mapRead(refsRead(db, origin, viewer, where), (found) => {
    const [status] = found.values();
    if (!status) throw notFoundStatus();
    return status;
  });

/**
 * GET …/source: the person's own status as they wrote it, one statement whose `where` holds the
 * ownership: a note's stored text; a reply's made from its HTML.
 */
export async function sourceOf(db: DB, uid: number, ref: StatusRef) {
  const own =
    ref.kind === "note"
      ? db
          .select({ txt: notes.txt, content: notes.content })
          .from(notes)
          .where(and(eq(notes.id, ref.id), eq(notes.userId, uid)))
      : db
          .select({ txt: replies.txt, content: replies.content })
          .from(replies)
          .where(and(eq(replies.id, ref.id), eq(replies.userId, uid)));
  const [row] = await own;
  if (!row) throw notFoundStatus();
  const text = ref.kind === "note" ? row.txt : textOf(row.content);
  return { id: ref.kind === "note" ? noteStatusId(ref.id) : replyStatusId(ref.id), text, spoiler_text: "" };
}

/**
 * GET …/history: a status's versions, oldest first, with its account, one batch: the status and a
 * note's versions (a reply keeps none: its history is its text as it is now).
 */
export async function historyOf(db: DB, origin: string, viewer: number | null, ref: StatusRef) {
  const versions = ref.kind === "note" ? historyRead(db, ref.id, viewer) : known(null);
  const { status: read, versions: history } = await readTogether(db, {
    status: refsRead(db, origin, viewer, refsWhere([ref])),
    versions,
  });
  const [status] = read.ok ? read.data.values() : [];
  if (!status) throw notFoundStatus();
  if (!history.ok) throw history.error;
  const base = { spoiler_text: "", sensitive: false, account: status.account, media_attachments: [], emojis: [] };
  if (!history.data) return [{ ...base, content: status.content, created_at: status.created_at }];
  return history.data.versions.reverse().map((v) => ({ ...base, content: v.content, created_at: iso(v.edited_at) }));
}

/** A status's HTML as the plain text an app edits. */
export const textOf = (html: string) =>
  html
    .replace(/<br\s*\/?>/g, "\n")
    .replace(/<\/p><p>/g, "\n\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");

/** One status, or Mastodon's 404. */
export async function statusOf(db: DB, origin: string, viewer: number | null, ref: StatusRef | null) {
  const [status] = ref ? await statusesOf(db, origin, viewer, [ref]) : [];
  if (!status) throw notFoundStatus();
  return status;
}

const THREAD_MAX = 200;

/**
 * A status's thread, oldest first as Mastodon's context: a note's replies all come after it; a
 * reply has its note and parent chain before it and its own sub-thread after it. One round trip:
 * the thread's note is named by a subquery (a reply's note_id), its first THREAD_MAX replies'
 * places and their statuses are read in the same batch, and the status itself decides the 404.
 */
export async function contextOf(db: DB, origin: string, viewer: number | null, ref: StatusRef) {
  const noteId = ref.kind === "note" ? sql`${ref.id}` : sql`(select note_id from replies where id = ${ref.id})`;
  const thread = (fields: { id: typeof replies.id; parent?: typeof replies.parentReplyId }) =>
    db
      .select(fields)
      .from(replies)
      .where(sql`${replies.noteId} = ${noteId}`)
      // Arrival order, along replies_note_idx (note_id, then rowid) with no sort: a reply always
      // arrives after what it answers, which the chain walk below relies on.
      .orderBy(asc(replies.id))
      .limit(THREAD_MAX);
  const placesPlan = planFrom(thread({ id: replies.id, parent: replies.parentReplyId }));
  const places: Read<{ id: number; parent: number | null }[]> = {
    statements: [bindPlan(db, placesPlan, {})],
    value: ([r]) => namedObjects(placesPlan, r.results),
  };
  const statuses = refsRead(db, origin, viewer, {
    notes: sql`${notes.id} = ${noteId}`,
    replies: or(eq(replies.id, ref.id), inArray(replies.id, thread({ id: replies.id }))) as SQL,
  });
  const [rows, found] = await readOne(db, pairOf(places, statuses));
  if (!found.has(`${ref.kind}:${ref.id}`)) throw notFoundStatus();
  const parentOf = new Map(rows.map((r) => [r.id, r.parent]));
  const ancestors: StatusRef[] = [];
  const descendants: StatusRef[] = [];
  if (ref.kind === "note") descendants.push(...rows.map((r) => ({ kind: "reply" as const, id: r.id })));
  else {
    for (let p = parentOf.get(ref.id); p !== undefined && p !== null; p = parentOf.get(p))
      ancestors.unshift({ kind: "reply", id: p });
    // The thread's note is the only note the batch read (absent when the viewer may not open it).
    const note = [...found.keys()].find((k) => k.startsWith("note:"));
    if (note) ancestors.unshift({ kind: "note", id: Number(note.slice("note:".length)) });
    const under = new Set([ref.id]);
    for (const r of rows)
      if (r.parent !== null && under.has(r.parent)) {
        under.add(r.id);
        descendants.push({ kind: "reply", id: r.id });
      }
  }
  return { ancestors: inOrder(ancestors, found), descendants: inOrder(descendants, found) };
}
