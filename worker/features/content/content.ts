// Content: what a person can like, bookmark or report (a note, a reply, an x-folder of a liked
// type), who wrote it as every content JSON names them, and checking one as a viewer may see it
// (a like's, bookmark's or report's target) inside the write's own batch.
import { and, eq, getTableName, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { folders } from "../../db/schema/folders";
import { notes } from "../../db/schema/notes";
import { replies } from "../../db/schema/social";
import type { DB } from "../../env";
import { notFound } from "../../lib/errors";
import { refusal } from "../../db/refuse";
import { blockedError } from "../safety/safety.service";
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
function targetQuery(db: DB, kind: ContentKind, id: number, viewer: number, visible: boolean) {
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

/** The refusals of a block between two people (blockState's 1 and 2), and their answers. */
export const refuseBlocks = (state: SQL) =>
  sql`when ${state} = 1 then ${refusal("blocked_mine")} when ${state} = 2 then ${refusal("blocked_theirs")}`;
export const BLOCK_REFUSALS = {
  blocked_mine: () => blockedError(1),
  blocked_theirs: () => blockedError(2),
};

/** What a target check's refusals answer (see targetCheck). */
export const TARGET_REFUSALS = { ...BLOCK_REFUSALS, not_found: () => notFound("Not found") };

/**
 * targetQuery as the first statement of a write's own batch (one round trip): yields the owner's id
 * as `owner_id`, or fails the batch (db/refuse.ts, answered by TARGET_REFUSALS) when there is no
 * such target or, with `blocks`, when a block stands between them.
 */
export function targetCheck(db: DB, kind: ContentKind, id: number, viewer: number, visible: boolean, blocks: boolean) {
  return db
    .select({
      ownerId:
        sql<number>`case when t.id is null then ${refusal("not_found")} ${blocks ? refuseBlocks(sql`t.blocked`) : sql``} else t.user_id end`.as(
          "owner_id",
        ),
    })
    .from(sql`(select 1) left join (${targetQuery(db, kind, id, viewer, visible)}) t`);
}
