// Content: what a person can like, bookmark or report (a note, a reply, an x-folder of a liked
// type), who wrote it as every content JSON names them, and finding one as a viewer may see it.
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { folders } from "../../db/schema/folders";
import { notes } from "../../db/schema/notes";
import { replies } from "../../db/schema/social";
import type { DB } from "../../env";
import { notFound } from "../../lib/errors";
import { authorActive, blockState, openable } from "../safety/visibility";

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
 */
export async function findTarget(
  db: DB,
  kind: ContentKind,
  id: number,
  viewer: number,
  /** false to undo one's own interaction, which stays possible on content one can no longer open. */
  visible = true,
): Promise<{ id: number; ownerId: number; blocked: number }> {
  const [row] =
    kind === "note"
      ? await db
          .select({ id: notes.id, ownerId: notes.userId, blocked: blockState(viewer, notes.userId) })
          .from(notes)
          .where(and(eq(notes.id, id), visible ? openable(sql`"notes"`, viewer, { blocks: false }) : undefined))
          .limit(1)
      : kind === "reply"
        ? await db
            .select({ id: replies.id, ownerId: replies.userId, blocked: blockState(viewer, replies.userId) })
            .from(replies)
            .where(and(eq(replies.id, id), visible ? openable(sql`"replies"`, viewer, { blocks: false }) : undefined))
            .limit(1)
        : await db
            .select({ id: folders.id, ownerId: folders.userId, blocked: blockState(viewer, folders.userId) })
            .from(folders)
            .where(
              and(
                eq(folders.id, id),
                sql`lower(${folders.type}) = ${kind}`,
                visible ? authorActive(folders.userId) : undefined,
              ),
            )
            .limit(1);
  if (!row) throw notFound("Not found");
  return row;
}
