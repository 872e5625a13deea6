import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../env";
import { AppError } from "../../lib/errors";
import { me, requireUser } from "../../lib/session";
import { body, param, query } from "../../lib/validate";
import { IdParam, ListQuery, OWNER_REQUIRED, OwnerListQuery } from "../../lib/params";
import { NoteInput, RenoteInput } from "./notes.schema";
import { getNote, LISTS, labelRead, listNotes, noteHistory, ownerNotesRead, tagRead } from "./read.service";
import { readOne } from "../../db/reads";
import { renote, undoRenote } from "./renotes.service";
import { createNote, deleteNote, updateNote } from "./write.service";
import { htmlToText, sanitizeHtml } from "../../lib/sanitize";
import { listFeed } from "../feed/feed.service";
import { federate, resolveMentions } from "../federation/federate";

const UserNotesQuery = OwnerListQuery.extend({ xlabel: z.string().max(100).optional() }).refine(...OWNER_REQUIRED);
const origin = (url: string) => new URL(url).origin;

export const notes = new Hono<AppEnv>()
  .get("/", query(UserNotesQuery), async (c) => {
    const q = c.req.valid("query");
    const owner = { uid: q.uid, username: q.username };
    return c.json(await readOne(c.var.db, ownerNotesRead(c.var.db, owner, q.xlabel, q, c.var.user?.id ?? null)));
  })
  .get("/:id", param(IdParam), async (c) =>
    c.json(await getNote(c.var.db, c.req.valid("param").id, c.var.user?.id ?? null)),
  )
  .get("/:id/history", param(IdParam), async (c) =>
    c.json(await noteHistory(c.var.db, c.req.valid("param").id, c.var.user?.id ?? null)),
  )
  .get("/:username/:id", param(IdParam.extend({ username: z.string().min(1).max(100) })), async (c) => {
    const { id, username } = c.req.valid("param");
    return c.json(await getNote(c.var.db, id, c.var.user?.id ?? null, username));
  })
  .post("/", requireUser, body(NoteInput), async (c) => {
    const data = c.req.valid("json");
    if (data.id) throw new AppError(422, "invalid_input", "Use PATCH to edit a note.");
    await resolveMentions(c, data.content);
    const saved = await createNote(c.env, c.var.db, me(c).id, data, origin(c.req.url));
    await federate(c, { notex: "note", op: "create", uid: me(c).id, id: saved.note.id });
    return c.json(saved, 201);
  })
  .patch("/", requireUser, body(NoteInput), async (c) => {
    const data = c.req.valid("json");
    if (!data.id) throw new AppError(422, "invalid_input", "id is required", { id: "id is required" });
    await resolveMentions(c, data.content);
    const saved = await updateNote(c.env, c.var.db, me(c).id, data.id, data, origin(c.req.url));
    await federate(c, { notex: "note", op: "update", uid: me(c).id, id: data.id });
    return c.json(saved);
  })
  .delete("/:id", requireUser, param(IdParam), async (c) => {
    await deleteNote(c.env, c.var.db, me(c).id, c.req.valid("param").id);
    await federate(c, { notex: "note", op: "delete", uid: me(c).id, id: c.req.valid("param").id });
    return c.json({ ok: true });
  });

export const feeds = new Hono<AppEnv>()
  .get("/discover", query(ListQuery), async (c) =>
    c.json(await listNotes(c.var.db, LISTS.discover, {}, c.req.valid("query"), c.var.user?.id ?? null)),
  )
  .get("/feeds", requireUser, query(ListQuery), async (c) =>
    c.json(await listFeed(c.var.db, me(c).id, c.req.valid("query"))),
  )
  .get("/tags/:tag", param(z.object({ tag: z.string().min(1).max(100) })), query(ListQuery), async (c) =>
    c.json(
      await readOne(
        c.var.db,
        tagRead(c.var.db, c.req.valid("param").tag, c.req.valid("query"), c.var.user?.id ?? null),
      ),
    ),
  )
  // Hono has decoded the path once; a second decode broke "100% done" (issue 20 §3).
  .get("/labels/:label", param(z.object({ label: z.string().min(1).max(100) })), query(ListQuery), async (c) =>
    c.json(
      await readOne(
        c.var.db,
        labelRead(c.var.db, c.req.valid("param").label, c.req.valid("query"), c.var.user?.id ?? null),
      ),
    ),
  );

export const renotes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/", body(RenoteInput), async (c) => {
    const { renote_id, content, quote } = c.req.valid("json");
    const html = content.trim() ? sanitizeHtml(content) : "";
    const txt = htmlToText(html);
    if (quote && !txt.trim())
      throw new AppError(422, "invalid_input", "please enter your note.", { content: "please enter your note." });
    if ([...txt].length > 2800) {
      throw new AppError(422, "invalid_input", "Note should be less than or equal 2800 character long.", {
        content: "Note should be less than or equal 2800 character long.",
      });
    }
    const done = await renote(c.var.db, me(c).id, renote_id, html, txt);
    // A plain renote is an Announce of the original; a quote is a note of its own.
    await federate(
      c,
      done.renoted
        ? { notex: "renote", op: "create", uid: me(c).id, target: done.id }
        : { notex: "note", op: "create", uid: me(c).id, id: done.id },
    );
    return c.json(done, 201);
  })
  .delete("/:id", param(IdParam), async (c) => {
    const done = await undoRenote(c.var.db, me(c).id, c.req.valid("param").id);
    await federate(c, { notex: "renote", op: "delete", uid: me(c).id, target: c.req.valid("param").id });
    return c.json(done);
  });
