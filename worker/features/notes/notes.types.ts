// The spec's Note as the API answers it (section 3). Shared contract between features.
import type { ImageDims } from "../uploads/image-dims";
export interface NoteUser {
  id: number;
  username: string;
  fullname: string;
  avatar: string;
  me: boolean;
}

export interface NoteFolderRef {
  id: number;
  name: string;
  slug: string;
}

/** What every note answers; `renote` is added by NoteJson and EmbeddedNote. */
interface NoteFields {
  id: number;
  /** "note" (kind 0), "renote" (kind 1: no text, shows `renote`), "quote" (kind 2: text + embedded `renote`). */
  kind: "note" | "renote" | "quote";
  user: NoteUser;
  label: string;
  /** Sanitised HTML. */
  content: string;
  txt: string;
  /** Image URLs joined by ";" (the spec's wire field). */
  imgs: string;
  /** The same image URLs as a list, for pages. */
  images: string[];
  /** Alt text of each image, in imgs' order ("" for none): an addition to the spec's Note. */
  alts: string[];
  /** Each image's natural size and blurhash where known (null where not), in imgs' order. */
  dims: (ImageDims | null)[];
  /** YouTube video id (11 characters) or "". */
  video: string;
  folders: NoteFolderRef[];
  /** Whether the viewer has renoted this note (for a renote row: the original). */
  renoted: boolean;
  renum: number;
  repnum: number;
  likenum: number;
  liked: boolean;
  created_at: number;
  noted_at: number;
  /** When the note was last edited (null: never); GET /v1/notes/{id}/history lists the versions. */
  edited_at: number | null;
  /** Hidden by a moderator (present only then; only the owner and moderators see such a note). */
  hidden?: true;
  /** Where an imported note was first published (a Mastodon archive's post). */
  origin_url?: string;
}

export interface NoteJson extends NoteFields {
  /** The original (for a renote or a quote), hydrated one level deep; null if none or deleted. */
  renote: EmbeddedNote | null;
}

/** A renote's or quote's original: one level deep, so its own `renote` is always null. */
export interface EmbeddedNote extends NoteFields {
  renote: null;
}

export interface Paginator {
  page: number;
  is_end: boolean;
}

/** Every list answers its items, the spec's paginator, and an opaque keyset cursor for the next page. */
export interface NoteList {
  notes: NoteJson[];
  paginator: Paginator;
  cursor: string | null;
}
