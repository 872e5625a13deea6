import { and, eq, sql } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { bookmarks } from "../../db/schema/social";
import type { AppEnv } from "../../env";
import { me, requireUser, rideAlong } from "../../lib/session";
import { param, query } from "../../lib/validate";
import { KindQuery } from "../likes/likes.routes";
import { findTarget } from "../content/content";
import { refuseBlocked } from "../safety/safety.service";
import { type ListShape, listNotes } from "../notes/read.service";
import { listReplies } from "../replies/replies.service";
import { IdParam, ListQuery } from "../../lib/params";

const mine = (uid: number, kind: string, id: number) =>
  and(eq(bookmarks.userId, uid), eq(bookmarks.kind, kind), eq(bookmarks.targetId, id));

/** Newest saved first, read along bookmarks (user_id, kind, created_at, target_id). */
const BOOKMARKED_NOTES: ListShape = {
  name: "bookmarks",
  driver: {
    table: bookmarks,
    at: bookmarks.createdAt,
    id: bookmarks.targetId,
    where: and(eq(bookmarks.userId, sql.placeholder("uid")), eq(bookmarks.kind, "note")),
  },
};

export const bookmarkRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", query(ListQuery.extend({ t: z.enum(["note", "rep", "reply"]).catch("note") })), async (c) => {
    const q = c.req.valid("query");
    const uid = me(c).id;
    if (q.t === "note") {
      return c.json(await listNotes(c.var.db, BOOKMARKED_NOTES, { uid }, q, uid, rideAlong(c)));
    }
    return c.json(
      await listReplies(
        c.var.db,
        sql`replies.id in (select target_id from bookmarks where user_id = ${uid} and kind = 'reply')`,
        q,
        uid,
        "desc",
      ),
    );
  })
  .get("/:id", param(IdParam), query(KindQuery), async (c) => {
    const [row] = await c.var.db
      .select({ one: sql`1` })
      .from(bookmarks)
      .where(mine(me(c).id, c.req.valid("query").t, c.req.valid("param").id))
      .limit(1);
    return c.json({ bookmarked: !!row });
  })
  .post("/:id", param(IdParam), query(KindQuery), async (c) => {
    const { id } = c.req.valid("param");
    const { t } = c.req.valid("query");
    refuseBlocked((await findTarget(c.var.db, t, id, me(c).id)).blocked);
    await c.var.db
      .insert(bookmarks)
      .values({ userId: me(c).id, kind: t, targetId: id })
      .onConflictDoNothing();
    return c.json({ bookmarked: true });
  })
  .delete("/:id", param(IdParam), query(KindQuery), async (c) => {
    await c.var.db.delete(bookmarks).where(mine(me(c).id, c.req.valid("query").t, c.req.valid("param").id));
    return c.json({ bookmarked: false });
  });
