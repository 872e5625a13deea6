// Content: what a person can like, bookmark or report (a note, a reply, an x-folder of a liked
// type), who wrote it as every content JSON names them, and checking one as a viewer may see it
// (a like's, bookmark's or report's target) inside the write's own batch.
import { and, eq, getTableName, inArray, type Placeholder, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { z } from "zod";
import { folders } from "../../db/schema/folders";
import { notes } from "../../db/schema/notes";
import { replies } from "../../db/schema/social";
import type { DB } from "../../env";
import { notFound } from "../../lib/errors";
import { blockRefusal } from "../safety/safety.service";
import { authorActive, blockState, openable, replyOpenable } from "../safety/visibility";

/** The author of a note, reply or folder as its JSON carries them. */
export interface UserRef {
  id: number;
  username: string;
  fullname: string;
  avatar: string;
  me: boolean;
}

/** Spec 3 content kinds: notes, replies, and x-folders of type company, project or skill. */
export const CONTENT_KINDS = ["note", "reply", "company", "project", "skill"] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
export const FOLDER_KINDS = new Set<ContentKind>(["company", "project", "skill"]);

/**
 * The rows of a like, bookmark or report table about one piece of content. An x-folder's are keyed
 * by its id whatever kind they were made under: its type can change (Company → Project) and what
 * people did to it stays its own.
 */
export const rowsAbout = (
  table: { kind: SQLiteColumn; targetId: SQLiteColumn },
  kind: ContentKind,
  id: number | Placeholder,
) =>
  FOLDER_KINDS.has(kind)
    ? and(inArray(table.kind, [...FOLDER_KINDS]), eq(table.targetId, id))
    : and(eq(table.kind, kind), eq(table.targetId, id));

/** An id in a statement: a value, or a placeholder of a statement built once (db/plan.ts). */
export type Bound = number | Placeholder;

/** `?t=` of a like or bookmark: the content kind (`rep` is the spec's other word for a reply). */
export const KindQuery = z.object({
  t: z
    .enum([...CONTENT_KINDS, "rep"], { error: "t must be one of note, reply, company, project, skill" })
    .default("note")
    .transform((t) => (t === "rep" ? "reply" : t)),
});

/**
 * The row a content kind points at, as `viewer` may see it (hidden content, a suspended owner or a
 * block either way is a 404, as on its page), with the block state between them for a 403 on
 * interactions: likes, bookmarks and reports all resolve targets here, in one query.
 * `visible` false: any row, to undo one's own interaction, which stays possible on content one can
 * no longer open.
 */
function targetQuery(db: DB, kind: ContentKind, id: Bound, viewer: Bound, visible: boolean) {
  const blocked = (owner: unknown) => blockState(viewer, owner).as("blocked");
  if (kind === "note" || kind === "reply") {
    const t = kind === "note" ? notes : replies;
    return db
      .select({ id: t.id, ownerId: t.userId, blocked: blocked(t.userId) })
      .from(t as typeof notes) // one table or the other: both have the columns read here
      .where(
        and(
          eq(t.id, id),
          visible
            ? (kind === "note" ? openable : replyOpenable)(sql.raw(`"${getTableName(t)}"`), viewer, { blocks: false })
            : undefined,
        ),
      )
      .limit(1);
  }
  return db
    .select({ id: folders.id, ownerId: folders.userId, blocked: blocked(folders.userId) })
    .from(folders)
    .where(
      and(
        eq(folders.id, id),
        sql`lower(${folders.type}) = ${kind}`,
        visible ? authorActive(folders.userId) : undefined,
      ),
    )
    .limit(1);
}

/** What a write's batch reads about its target before writing: is it there for the viewer, and the block state. */
export interface TargetFacts {
  found: number;
  blocked: number;
}

/**
 * targetQuery as the first statement of a write's own batch (one round trip): the facts the write's
 * answer is decided from (targetRefusal), read in the same transaction as the write's guards.
 */
export function targetFacts(db: DB, kind: ContentKind, id: Bound, viewer: Bound, visible: boolean) {
  return db
    .select({
      found: sql<number>`t.id is not null`.as("found"),
      blocked: sql<number>`coalesce(t.blocked, 0)`.as("blocked"),
    })
    .from(sql`(select 1) left join (${targetQuery(db, kind, id, viewer, visible)}) t`);
}

/**
 * The guard of each statement of a write about a target: it holds when targetFacts finds the target
 * and, with `blocks`, no block stands between them. A refused write then changes nothing.
 */
export const targetAllows = (db: DB, kind: ContentKind, id: Bound, viewer: Bound, visible: boolean, blocks: boolean) =>
  sql`exists(select 1 from (${targetQuery(db, kind, id, viewer, visible)}) t${blocks ? sql` where t.blocked = 0` : sql``})`;

/**
 * The error a write's target facts answer, or null to go on: 404 when it is not there for the
 * viewer (`missing`: that 404's message), and with `blocks` a 403 across a block.
 */
export function targetRefusal(facts: TargetFacts | undefined, blocks: boolean, missing = "Not found") {
  if (!facts?.found) return notFound(missing);
  return blocks ? blockRefusal(facts.blocked) : null;
}
