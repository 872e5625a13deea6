// /api/v1/statuses: post, read, edit, delete, and the interactions, through NoteX's own services.
import { Hono } from "hono";
import { inArray, type SQL, sql } from "drizzle-orm";
import type { Read } from "../../db/reads";
import { notes } from "../../db/schema/notes";
import { replies } from "../../db/schema/social";
import { AppError } from "../../lib/errors";
import { markWrite } from "../interactions/interactions.service";
import { BOOKMARK } from "../interactions/kinds";
import { LIKES } from "../interactions/kinds";
import { rowAction } from "../interactions/rows.action";
import { renoteAction } from "../notes/renote.action";
import { renoteOf } from "../notes/renotes.service";
import { deleteStatus, editStatus, idempotent, postStatus, StatusInput } from "./compose.service";
import {
  acting,
  input,
  type MastoContext,
  type MastoEnv,
  originOf,
  readable,
  scoped,
  viewer,
  viewerId,
} from "./masto.http";
import { type StatusRef, statusRef } from "./serialise";
import {
  contextOf,
  historyOf,
  notFoundStatus,
  type RefsWhere,
  refsWhere,
  sourceOf,
  statusOf,
  statusRead,
  writeThenStatus,
} from "./statuses.service";

const refOf = (c: MastoContext): StatusRef => {
  const ref = statusRef(c.req.param("id"));
  if (!ref) throw notFoundStatus();
  return ref;
};

/** The status as the viewer sees it now. */
const answer = async (c: MastoContext, ref: StatusRef) =>
  c.json(await statusOf(c.var.db, originOf(c), viewerId(c), ref));

/** The write, then the status `where` names as the person sees it now: one batch. */
const afterWrite = <T>(c: MastoContext, write: Read<T>, where: RefsWhere) =>
  writeThenStatus(c.var.db, originOf(c), viewer(c).id, write, where);

/** Bookmark/unbookmark act on notes and replies alike, then answer the status. */
const toggle = (on: boolean) => async (c: MastoContext) => {
  const ref = refOf(c);
  const write = markWrite(BOOKMARK, c.var.db, viewer(c).id, ref.kind, ref.id, on);
  return c.json((await afterWrite(c, write, refsWhere([ref]))).status);
};

/** Favourite/unfavourite: /v1's like, answered with the status read in the like's own batch. */
const favourite = (on: boolean) => async (c: MastoContext) => {
  const ref = refOf(c);
  const me = viewer(c).id;
  const status = statusRead(c.var.db, originOf(c), me, refsWhere([ref]));
  return c.json((await rowAction(acting(c), LIKES, me, ref, on, status)).read);
};

/** Only notes: the other kind's ids match none. */
const noReplies = inArray(replies.id, [0]);

const unsupported = (what: string) => () => {
  throw new AppError(422, "invalid_input", `Validation failed: ${what}`);
};

export const statusRoutes = new Hono<MastoEnv>()
  .post("/api/v1/statuses", scoped("write:statuses"), async (c) => {
    const me = viewer(c);
    const key = c.req.header("idempotency-key");
    const done = await idempotent(c.var.db, me.id, key);
    if (done) return answer(c, done);
    const { status } = await postStatus(acting(c), me, await input(c, StatusInput), key);
    return c.json(status);
  })
  .get("/api/v1/statuses/:id", readable("read:statuses"), (c) => answer(c, refOf(c)))
  .put("/api/v1/statuses/:id", scoped("write:statuses"), async (c) => {
    const ref = refOf(c);
    const me = viewer(c);
    return c.json(await editStatus(acting(c), me, ref, await input(c, StatusInput)));
  })
  .delete("/api/v1/statuses/:id", scoped("write:statuses"), async (c) => {
    const ref = refOf(c);
    const me = viewer(c);
    return c.json(await deleteStatus(acting(c), me, ref, originOf(c)));
  })
  .get("/api/v1/statuses/:id/context", readable("read:statuses"), async (c) => {
    return c.json(await contextOf(c.var.db, originOf(c), viewerId(c), refOf(c)));
  })
  .get("/api/v1/statuses/:id/source", scoped("read:statuses"), async (c) =>
    c.json(await sourceOf(c.var.db, viewer(c).id, refOf(c))),
  )
  .get("/api/v1/statuses/:id/history", readable("read:statuses"), async (c) =>
    c.json(await historyOf(c.var.db, originOf(c), viewerId(c), refOf(c))),
  )
  .post("/api/v1/statuses/:id/favourite", scoped("write:favourites"), favourite(true))
  .post("/api/v1/statuses/:id/unfavourite", scoped("write:favourites"), favourite(false))
  .post("/api/v1/statuses/:id/bookmark", scoped("write:bookmarks"), toggle(true))
  .post("/api/v1/statuses/:id/unbookmark", scoped("write:bookmarks"), toggle(false))
  .post("/api/v1/statuses/:id/reblog", scoped("write:statuses"), async (c) => {
    const ref = refOf(c);
    if (ref.kind === "reply")
      throw new AppError(422, "invalid_input", "Validation failed: NoteX replies cannot be reblogged.");
    const me = viewer(c).id;
    // Mastodon answers the reblog itself (its `reblog` the original): the person's renote of the
    // original, which a renote of a renote shares too, read back by the same batch.
    const mine = (original: SQL<number> | number) => ({
      notes: sql`${notes.id} = ${renoteOf(me, original)}`,
      replies: noReplies,
    });
    const status = (original: SQL<number> | number) => statusRead(c.var.db, originOf(c), me, mine(original));
    return c.json((await renoteAction(acting(c), me, ref.id, true, status)).read);
  })
  .post("/api/v1/statuses/:id/unreblog", scoped("write:statuses"), async (c) => {
    const ref = refOf(c);
    if (ref.kind === "reply") throw notFoundStatus();
    const me = viewer(c).id;
    const status = () => statusRead(c.var.db, originOf(c), me, refsWhere([ref]));
    return c.json((await renoteAction(acting(c), me, ref.id, false, status)).read);
  })
  .post("/api/v1/statuses/:id/pin", scoped("write:accounts"), unsupported("NoteX has no pinned posts."))
  .post("/api/v1/statuses/:id/unpin", scoped("write:accounts"), unsupported("NoteX has no pinned posts."))
  .post(
    "/api/v1/statuses/:id/mute",
    scoped("write:mutes"),
    unsupported("NoteX cannot mute a conversation; mute its author instead."),
  )
  .post("/api/v1/statuses/:id/unmute", scoped("write:mutes"), unsupported("NoteX cannot mute a conversation."));
