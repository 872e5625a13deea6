// Statuses over NoteX's notes and replies: reading them as Mastodon entities in one batch, and
// turning what an app posts into the note, reply or quote NoteX's own services write.
import { and, asc, eq, inArray, or, type SQL, sql } from "drizzle-orm";
import { bindPlan, namedObjects, planFrom } from "../../db/plan";
import { known, pairOf, type Read, readOne, readTogether } from "../../db/reads";
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
import { addNote, addReply, emptyCtx, REPLY_STATUS_COLUMNS, replyParentAuthor, STATUS_COLUMNS } from "./columns";
import {
  ctxOf,
  ctxStatements,
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
 * Notes and replies as statuses, each open to the viewer, keyed "note:id" / "reply:id": one
 * statement per table whose rows carry all a status shows (accounts, bookmarks, a reply's parent
 * author), so a caller can put them in its own batch behind whatever names the ids.
 */
export function refsRead(
  db: DB,
  origin: string,
  viewer: number | null,
  where: RefsWhere,
  /** Values of placeholders in `where`'s subqueries. */
  values: Record<string, unknown> = {},
): Read<Map<string, Status>> {
  const noteQ = planFrom(
    db
      .select({ ...hydrated(viewer), ...STATUS_COLUMNS.columns })
      .from(notes)
      .innerJoin(users, eq(users.id, notes.userId))
      .where(and(where.notes, openable(NOTES, viewer))),
  );
  const replyQ = planFrom(
    replySelect(db, viewer, REPLY_STATUS_COLUMNS).where(and(where.replies, openable(sql`"replies"`, viewer))),
  );
  return {
    statements: [bindPlan(db, noteQ, { ...values, viewer }), bindPlan(db, replyQ, { ...values, viewer })],
    value: ([n, r]) => {
      const ctx = emptyCtx(origin);
      const noteRows = namedObjects<Hydrated>(noteQ, n.results).map((row) => {
        const note = toNoteJson(row, viewer);
        addNote(ctx, note, row);
        return note;
      });
      type ReplyRow = Parameters<typeof replyJson>[0] & { mParentAuthor: number | null };
      const replyRows = namedObjects<ReplyRow>(replyQ, r.results).map((row) => {
        const reply = replyJson(row, viewer);
        addReply(ctx, reply, row);
        return { reply, parentAuthor: row.mParentAuthor };
      });
      return new Map([
        ...noteRows.map((note) => [`note:${note.id}`, noteStatus(note, ctx)] as const),
        ...replyRows.map((x) => [`reply:${x.reply.id}`, replyStatus(x.reply, ctx, x.parentAuthor)] as const),
      ]);
    },
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

/**
 * The same for a reply the write's batch made or answered (`id`: SQL naming it there): the reply
 * with its author and the author's like, whom it answers, its account and the author's bookmark.
 */
export function replyReadBack(db: DB, author: number, id: SQL<number>) {
  const statements = [
    replySelect(db, author, { parentAuthor: replyParentAuthor.as("parent_author") }).where(eq(replies.id, id)),
    ...ctxStatements(db, author, sql`(select user_id from replies where id = ${id})`, [], sql`(select ${id})`),
  ];
  const answer = (results: unknown[], origin: string): Status => {
    const [[row], ...ctx] = results as [(Parameters<typeof replyJson>[0] & { parentAuthor: number })[], ...unknown[]];
    if (!row) throw notFoundStatus();
    return replyStatus(replyJson(row, author), ctxOf(origin, ctx), row.parentAuthor);
  };
  return { statements, answer };
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
  const [done, found] = await readOne(db, pairOf(write, refsRead(db, origin, viewer, where)));
  const [status] = found.values();
  if (!status) throw notFoundStatus();
  return { done, status };
}

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
  const thread = (fields: { id: typeof replies.id; parent?: typeof replies.parent }) =>
    db
      .select(fields)
      .from(replies)
      .where(sql`${replies.noteId} = ${noteId}`)
      // Arrival order, along replies_note_idx (note_id, then rowid) with no sort: a reply always
      // arrives after what it answers, which the chain walk below relies on.
      .orderBy(asc(replies.id))
      .limit(THREAD_MAX);
  const placesPlan = planFrom(thread({ id: replies.id, parent: replies.parent }));
  const places: Read<{ id: number; parent: number }[]> = {
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
    for (let p = parentOf.get(ref.id); p !== undefined && p > 0; p = parentOf.get(p))
      ancestors.unshift({ kind: "reply", id: p });
    // The thread's note is the only note the batch read (absent when the viewer may not open it).
    const note = [...found.keys()].find((k) => k.startsWith("note:"));
    if (note) ancestors.unshift({ kind: "note", id: Number(note.slice("note:".length)) });
    const under = new Set([ref.id]);
    for (const r of rows)
      if (under.has(r.parent)) {
        under.add(r.id);
        descendants.push({ kind: "reply", id: r.id });
      }
  }
  return { ancestors: inOrder(ancestors, found), descendants: inOrder(descendants, found) };
}
