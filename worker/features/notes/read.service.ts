// Reading notes: keyset pages of every note list, one note, and a note's edit history.
import { and, asc, desc, eq, type Placeholder, type SQL, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { bindPlan, namedObjects, planFrom, planOf } from "../../db/plan";
import { mapRead, type Read, readOne } from "../../db/reads";
import { deletedNotes, noteTags, notes } from "../../db/schema/notes";
import { noteVersions } from "../../db/schema/safety";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { type Keyset, PAGE_SIZE, pageOf, startOf } from "../../lib/paging";
import { noteInList, openable, type Viewer } from "../safety/visibility";
import { idNamed } from "../users/users.service";
import { RENOTE } from "./notes.constants";
import { Label } from "./notes.schema";
import { type Hydrated, hydrated, type ListedRows, NOTES, type RowExtra, toNoteJson } from "./notes.json";
import type { NoteJson, NoteList } from "./notes.types";

/**
 * Where a list's order comes from when it is not the notes' own time index: a table of (time,
 * note id) rows with an index in that order (tags, bookmarks, folders). The page is read along
 * that index, so it never sorts more than it shows.
 */
export interface ListDriver {
  table: SQLiteTable;
  at: SQLiteColumn;
  id: SQLiteColumn;
  where: SQL | undefined;
}

/**
 * A note list's shape: where its rows come from, with `sql.placeholder`s for every value (never a
 * request's value itself: the statement is built once per shape and reused).
 */
export interface ListShape {
  name: string;
  where?: SQL;
  driver?: ListDriver;
  /** false for lists of one author the viewer chose to open (a profile, a folder): mutes keep them. */
  mute?: boolean;
}

const P = (name: string) => sql.placeholder(name);

/** One person's notes, and those under one x-label of theirs: [all, labelled]. Mutes keep them (opened on purpose). */
const ownerLists = (name: string, owner: SQL | Placeholder) =>
  [
    { name, where: eq(notes.userId, owner), mute: false },
    { name: `${name}Label`, where: and(eq(notes.userId, owner), eq(notes.label, P("label"))), mute: false },
  ] as const satisfies readonly ListShape[];

/** A person's lists by id (`uid`), and by the name in a page's address (`username`, users.service idNamed). */
export const OWNER_LISTS = { byId: ownerLists("user", P("uid")), byName: ownerLists("byName", idNamed(P("username"))) };

export const LISTS = {
  discover: { name: "discover", where: sql`${notes.kind} != ${RENOTE}` },
  label: { name: "label", where: and(eq(notes.label, P("label")), sql`${notes.kind} != ${RENOTE}`) },
  /** A tag page reads along note_tags (tag, created_at, note_id). */
  tag: {
    name: "tag",
    driver: { table: noteTags, at: noteTags.createdAt, id: noteTags.noteId, where: eq(noteTags.tag, P("tag")) },
  },
} satisfies Record<string, ListShape>;

/** The statement of a list shape (with or without keyset and viewer), built once. */
/**
 * Where a page starts: at the top, below a cursor's (time, id), or below a note given by id alone
 * (a Mastodon max_id), whose time the statement looks up itself rather than a trip before it.
 */
type Keyed = "top" | "cursor" | "note" | "aboveNote";

function listPlan(db: DB, shape: ListShape, keyset: Keyed, viewer: boolean, extra?: RowExtra) {
  return planOf(`list:${shape.name}|${keyset}|${+viewer}${extra ? `|${extra.name}` : ""}`, () => {
    const { driver } = shape;
    const visible = noteInList(NOTES, viewer ? P("viewer") : null, { mute: shape.mute ?? true }, sql.raw('"users"'));
    const at = driver?.at ?? notes.createdAt;
    const id = driver?.id ?? notes.id;
    const select = {
      ...hydrated(viewer ? P("viewer") : null),
      sortAt: sql<number>`${at}`.as("x_sort_at"),
      ...extra?.columns,
    };
    const from = driver
      ? db
          .select(select)
          .from(driver.table)
          .innerJoin(notes, eq(notes.id, id))
          .innerJoin(users, eq(users.id, notes.userId))
      : db.select(select).from(notes).innerJoin(users, eq(users.id, notes.userId));
    return (
      from
        .where(
          and(
            driver?.where,
            shape.where,
            visible,
            keyset === "cursor"
              ? sql`(${at}, ${id}) < (${P("at")}, ${P("kid")})`
              : keyset === "note"
                ? sql`(${at}, ${id}) < ((select k.created_at from notes k where k.id = ${P("kid")}), ${P("kid")})`
                : keyset === "aboveNote"
                  ? sql`(${at}, ${id}) > ((select k.created_at from notes k where k.id = ${P("kid")}), ${P("kid")})`
                  : undefined,
          ),
        )
        // Above a note the list is read upwards (the page right above it), and turned after.
        .orderBy(...(keyset === "aboveNote" ? [asc(at), asc(id)] : [desc(at), desc(id)]))
        .limit(P("limit"))
        .offset(P("offset"))
    );
  });
}

/**
 * One keyset page of a list, newest first, hydrated for the viewer: one statement. `size` is for
 * readers that take more than a page at once (a feed's 50 items); the API's pages are PAGE_SIZE.
 */
export const listRead = (
  db: DB,
  shape: ListShape,
  values: Record<string, unknown>,
  q: { page: number; cursor?: string },
  viewerId: number | null,
  size = PAGE_SIZE,
): Read<NoteList> => mapRead(listReadWith(db, shape, values, q, viewerId, size), (v) => v.list);

/**
 * A list's page with `extra`'s columns read on each of its rows (`rows`, in the notes' order);
 * `belowNote` starts it below that note (its time and id) instead of at a cursor; `aboveNote` is
 * the page right above that note (Mastodon's min_id), still newest first.
 */
export function listReadWith(
  db: DB,
  shape: ListShape,
  values: Record<string, unknown>,
  q: { page: number; cursor?: string; belowNote?: number; aboveNote?: number },
  viewerId: number | null,
  size = PAGE_SIZE,
  extra?: RowExtra,
): Read<ListedRows> {
  const { after, offset } = startOf(q);
  const keyed: Keyed =
    q.belowNote !== undefined ? "note" : q.aboveNote !== undefined ? "aboveNote" : after ? "cursor" : "top";
  const plan = listPlan(db, shape, keyed, !!viewerId, extra);
  const statement = bindPlan(db, plan, {
    ...values,
    viewer: viewerId,
    at: after?.at,
    kid: q.belowNote ?? q.aboveNote ?? after?.id,
    limit: size + 1,
    offset,
  });
  return {
    statements: [statement],
    value: ([r]) => {
      const rows = namedObjects<Hydrated & { sortAt: number }>(plan, r.results);
      const page = pageOf(rows, q.page, (row): Keyset => ({ at: row.sortAt, id: row.id }), size);
      if (keyed === "aboveNote") page.items.reverse();
      const list = {
        notes: page.items.map((row) => toNoteJson(row, viewerId)),
        paginator: page.paginator,
        cursor: page.cursor,
      };
      return { list, rows: page.items };
    },
  };
}

export const listNotes = (...args: Parameters<typeof listRead>) => readOne(args[0], listRead(...args));

/**
 * One person's notes (by id, or by the name in a page's address), all or under one x-label: one
 * statement. A label that cannot exist matches nothing (and is never a 500).
 */
export function ownerNotesRead(
  db: DB,
  owner: { uid?: number; username?: string },
  xlabel: string | undefined,
  q: { page: number; cursor?: string },
  viewerId: number | null,
): Read<NoteList> {
  const label = xlabel ? Label.safeParse(xlabel) : null;
  const [all, labelled] = owner.uid !== undefined ? OWNER_LISTS.byId : OWNER_LISTS.byName;
  const values = { ...owner, label: label?.success ? label.data : "\u0000" };
  return listRead(db, xlabel ? labelled : all, values, q, viewerId);
}

/** The notes under a #tag (any case), newest first. */
export const tagRead = (db: DB, tag: string, q: { page: number; cursor?: string }, viewerId: number | null) =>
  listRead(db, LISTS.tag, { tag: tag.toLowerCase() }, q, viewerId);

/** Everyone's notes under one x-label (any case, outer spaces ignored), newest first. */
export const labelRead = (db: DB, label: string, q: { page: number; cursor?: string }, viewerId: number | null) =>
  listRead(db, LISTS.label, { label: label.trim().toLowerCase() }, q, viewerId);

/** The query for one hydrated note, so a caller can batch it with its own (one round trip). */
export function noteQuery(db: DB, where: SQL | undefined, viewerId: Viewer) {
  return db
    .select(hydrated(viewerId))
    .from(notes)
    .innerJoin(users, eq(users.id, notes.userId))
    .where(and(where, openable(NOTES, viewerId)))
    .limit(1);
}

export function noteFromRows(rows: Hydrated[], viewerId: number | null): NoteJson {
  if (!rows[0]) throw notFound("Note not found");
  return toNoteJson(rows[0], viewerId);
}

/** One note (by id, and by its author's name when a page's address gives one), as `viewerId` may see it. */
export function noteRead(db: DB, id: number, viewerId: number | null, username?: string): Read<NoteJson> {
  // Note detail is a hot read too: built once per variant, then only bound.
  const plan = planOf(`note|${+!!username}|${+!!viewerId}`, () =>
    noteQuery(
      db,
      and(eq(notes.id, P("id")), username ? sql`lower(${users.username}) = lower(${P("username")})` : undefined),
      viewerId ? P("viewer") : null,
    ),
  );
  // Why a note cannot be shown, asked in the same trip (a primary-key probe): deleted by its
  // author (a tombstone: 410, said as such), or never there or not for this viewer (404).
  const tombstone = planOf(`noteGone|${+!!username}`, () =>
    db
      .select({ id: deletedNotes.id })
      .from(deletedNotes)
      .where(and(eq(deletedNotes.id, P("id")), username ? eq(deletedNotes.userId, idNamed(P("username"))) : undefined))
      .limit(1),
  );
  const values = { id, username, viewer: viewerId };
  return {
    statements: [bindPlan(db, plan, values), bindPlan(db, tombstone, values)],
    value: ([found, gone]) => {
      const [row] = namedObjects<Hydrated>(plan, found.results);
      if (row) return toNoteJson(row, viewerId);
      throw gone.results.length
        ? new AppError(410, "note_deleted", "This note was deleted")
        : notFound("Note not found");
    },
  };
}

export const getNote = (db: DB, id: number, viewerId: number | null, username?: string) =>
  readOne(db, noteRead(db, id, viewerId, username));

export interface NoteVersion {
  label: string;
  content: string;
  txt: string;
  /** When this version was written: the note's creation for the first, each edit for the rest. */
  edited_at: number;
  current: boolean;
}

/**
 * The versions of a note, newest (the current text) first, to whoever may open the note: two
 * statements sent together, the note's own visibility rule in its where.
 */
export function historyRead(db: DB, id: number, viewerId: number | null) {
  const current = planFrom(
    db
      .select({
        label: notes.label,
        content: notes.content,
        txt: notes.txt,
        createdAt: notes.createdAt,
        updatedAt: notes.updatedAt,
        username: users.username,
      })
      .from(notes)
      .innerJoin(users, eq(users.id, notes.userId))
      .where(and(eq(notes.id, id), sql`${notes.kind} != ${RENOTE}`, openable(NOTES, viewerId)))
      .limit(1),
  );
  const older = planFrom(
    db
      .select({
        label: noteVersions.label,
        content: noteVersions.content,
        txt: noteVersions.txt,
        at: noteVersions.editedAt,
      })
      .from(noteVersions)
      .where(eq(noteVersions.noteId, id))
      .orderBy(desc(noteVersions.editedAt), desc(noteVersions.id))
      .limit(MAX_VERSIONS),
  );
  type Current = {
    label: string;
    content: string;
    txt: string;
    createdAt: number;
    updatedAt: number | null;
    username: string;
  };
  type Older = { label: string; content: string; txt: string; at: number };
  return {
    statements: [bindPlan(db, current, {}), bindPlan(db, older, {})],
    value: ([n, o]: D1Result<Record<string, unknown>>[]) => {
      const [note] = namedObjects<Current>(current, n.results);
      if (!note) throw notFound("Note not found");
      const versions: NoteVersion[] = [
        {
          label: note.label,
          content: note.content,
          txt: note.txt,
          edited_at: note.updatedAt ?? note.createdAt,
          current: true,
        },
        ...namedObjects<Older>(older, o.results).map((v) => ({
          label: v.label,
          content: v.content,
          txt: v.txt,
          edited_at: v.at,
          current: false,
        })),
      ];
      return { id, username: note.username, edited_at: note.updatedAt ?? null, versions };
    },
  };
}

export const noteHistory = (db: DB, id: number, viewerId: number | null) => readOne(db, historyRead(db, id, viewerId));

/** A history shows the latest edits; a note edited more often than this keeps its oldest rows unlisted. */
const MAX_VERSIONS = 100;
