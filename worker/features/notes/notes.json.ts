// A note as the API answers it (NoteJson), from one hydrated row: the columns a list or detail
// selects and how they become the spec's Note. Reads (read.service.ts) and search select this shape.
import { getTableColumns, type SQL, sql } from "drizzle-orm";
import { notes } from "../../db/schema/notes";
import { users } from "../../db/schema/users";
import { likedBy } from "../likes/likes.service";
import { parseDims } from "../uploads/image-dims";
import { originalVisible, type Viewer } from "../safety/visibility";
import { NOTE_KINDS, RENOTE } from "./notes.constants";
import type { EmbeddedNote, NoteJson, NoteList } from "./notes.types";

type NoteRow = typeof notes.$inferSelect;

/**
 * A note's viewer state and folders as correlated subqueries on `n` (a notes row): each is one
 * primary-key or index lookup, evaluated only for the rows a page returns, so a list and all it
 * shows cost one D1 round trip.
 */
function extras(n: SQL, viewer: unknown) {
  return {
    liked: viewer ? likedBy(viewer, "note", sql`${n}.id`) : sql`0`,
    renoted: viewer
      ? sql`exists(select 1 from notes r where r.user_id = ${viewer} and r.kind = ${RENOTE} and r.renote_id = ${n}.id)`
      : sql`0`,
    folders: sql`(select json_group_array(json_object('id', f.id, 'name', f.name, 'slug', f.slug)) from folder_notes fn join folders f on f.id = fn.folder_id where fn.note_id = ${n}.id)`,
  };
}

/** The original of a renote or quote, one level deep, as a JSON object with a list row's field names (null when gone). */
function originalJson(viewer: Viewer) {
  const o = extras(sql.raw("o"), viewer ?? 0);
  return sql<string | null>`(select json_object(
    'id', o.id, 'kind', o.kind, 'userId', o.user_id, 'username', ou.username, 'fullname', ou.fullname,
    'avatar', ou.avatar, 'label', o.label, 'content', o.content, 'txt', o.txt, 'imgs', o.imgs, 'alts', o.alts, 'dims', o.dims, 'video', o.video,
    'renum', o.renum, 'repnum', o.repnum, 'likenum', o.likenum, 'createdAt', o.created_at, 'notedAt', o.noted_at,
    'updatedAt', o.updated_at, 'liked', ${o.liked}, 'renoted', ${o.renoted}, 'folders', json(${o.folders}))
    from notes o join users ou on ou.id = o.user_id where o.id = ${notes.renoteId} and ${originalVisible(sql.raw("o"), viewer, undefined, sql.raw("ou"))})`;
}

export const NOTES = sql.raw('"notes"');

// Flat, so a plan names a raw row's values by position (worker/db/plan.ts).
const NOTE_COLUMNS = getTableColumns(notes);

/** What a note list selects: the note, its author, its original and the viewer's state, all in one row. */
export function hydrated(viewerId: Viewer) {
  const viewer = viewerId ?? 0;
  const e = extras(NOTES, viewer);
  return {
    ...NOTE_COLUMNS,
    username: users.username,
    fullname: users.fullname,
    avatar: users.avatar,
    // Named, so a batch (which reads rows by column name) never sees a bare "0" column.
    liked: sql<number>`${e.liked}`.as("x_liked"),
    renoted: sql<number>`${e.renoted}`.as("x_renoted"),
    folders: sql<string>`${e.folders}`.as("x_folders"),
    original: originalJson(viewerId).as("x_original"),
  };
}

/**
 * Columns a caller reads on each row of a note list besides the hydrated ones (aliased, over the
 * list's `notes` and `users`, values as placeholders): `name` keys the list's cached plan.
 */
export interface RowExtra {
  name: string;
  columns: Record<string, SQL.Aliased>;
}

/** A page of a list and its rows as read (with any extra columns), in the same order. */
export interface ListedRows {
  list: NoteList;
  rows: Record<string, unknown>[];
}

/** A note with its author and the viewer's state: a list row, or its original parsed from JSON. */
type NoteFields = Omit<NoteRow, "renoteId" | "hiddenAt"> & {
  /** Set on a list or detail row (an original's JSON has none: a hidden original is not shown). */
  hiddenAt?: number | null;
  username: string;
  fullname: string;
  avatar: string;
  liked: number;
  renoted: number;
  /** JSON text in a row; already an array in a parsed original. */
  folders: string | NoteJson["folders"];
};

export type Hydrated = NoteFields & { original: string | null };

/** The stored alt texts (a JSON list); anything unreadable counts as none. */
function parseAlts(raw: string): string[] {
  try {
    const v = JSON.parse(raw);
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** The spec's Note from one hydrated row; its original (one level) from the same row's JSON. */
export function toNoteJson(r: NoteFields & { original?: string | null }, viewerId: number | null): NoteJson {
  const viewer = viewerId ?? 0;
  const original: NoteFields | null = r.original ? JSON.parse(r.original) : null;
  return {
    id: r.id,
    kind: NOTE_KINDS[r.kind] ?? "note",
    user: { id: r.userId, username: r.username, fullname: r.fullname, avatar: r.avatar, me: r.userId === viewer },
    label: r.label,
    content: r.content,
    txt: r.txt,
    imgs: r.imgs,
    images: r.imgs.split(";").filter(Boolean),
    alts: parseAlts(r.alts),
    dims: parseDims(r.dims),
    video: r.video,
    folders: typeof r.folders === "string" ? JSON.parse(r.folders) : r.folders,
    // An original's JSON has no original of its own (one level deep): its renote is null.
    renote: original && (toNoteJson(original, viewerId) as EmbeddedNote),
    renoted: !!r.renoted,
    renum: r.renum,
    repnum: r.repnum,
    likenum: r.likenum,
    liked: !!r.liked,
    created_at: r.createdAt,
    noted_at: r.notedAt,
    edited_at: r.updatedAt ?? null,
    // Only its owner and moderators ever receive a hidden note.
    ...(r.hiddenAt ? { hidden: true } : {}),
    ...(r.originUrl ? { origin_url: r.originUrl } : {}),
  };
}
