import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { cascadeRef, counter, createdAt, serialId } from "../columns";
import { tallyTable } from "../tables";
import { notes } from "./notes";
import { users } from "./users";

export const folders = sqliteTable(
  "folders",
  {
    id: serialId(),
    userId: cascadeRef("user_id", () => users.id),
    type: text("type").notNull(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    descr: text("descr").notNull().default(""),
    link: text("link").notNull().default(""),
    logo: text("logo").notNull().default(""),
    notenum: counter("notenum"),
    // Time the latest note was filed; 0 until one is. Sort "Noted at" uses it.
    notedAt: integer("noted_at").notNull().default(0),
    likenum: counter("likenum"),
    // An experience's role (a job title, a degree) and its months, "YYYY-MM" or "" (none). A start
    // without an end is ongoing ("Present").
    role: text("role").notNull().default(""),
    startMonth: text("start_month").notNull().default(""),
    endMonth: text("end_month").notNull().default(""),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("folders_user_slug_uq").on(t.userId, t.slug),
    uniqueIndex("folders_user_type_name_uq").on(t.userId, sql`lower(${t.type})`, sql`lower(${t.name})`),
    index("folders_user_type_idx").on(t.userId, t.type, t.id),
    index("folders_user_noted_idx").on(t.userId, t.notedAt, t.id),
  ],
);

export const folderNotes = sqliteTable(
  "folder_notes",
  {
    folderId: cascadeRef("folder_id", () => folders.id),
    noteId: cascadeRef("note_id", () => notes.id),
    // Copies of the note's label and created_at so the folder page filters and pages on one index.
    label: text("label").notNull().default(""),
    noteCreatedAt: integer("note_created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.folderId, t.noteId] }),
    index("folder_notes_note_idx").on(t.noteId),
    index("folder_notes_folder_created_idx").on(t.folderId, t.noteCreatedAt, t.noteId),
    index("folder_notes_folder_label_created_idx").on(t.folderId, t.label, t.noteCreatedAt, t.noteId),
  ],
);

export const folderLabels = tallyTable(
  "folder_labels",
  { key: "folderId", column: "folder_id", to: () => folders.id },
  "label",
);
