import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { AppError } from "../../lib/errors";
import { me } from "../../lib/session";
import { type Answer, json, jsonBody, Ok, readBody, router, signedIn, typed } from "../../lib/validate";
import { AddressParam, IdParam, ListQuery, OWNER_REQUIRED, OwnerListQuery } from "../../lib/params";
import { NoteInput, RenoteInput } from "./notes.schema";
import { getNote, LISTS, labelRead, listNotes, noteHistory, ownerNotesRead, tagRead } from "./read.service";
import { readOne } from "../../db/reads";
import type { Shared } from "./renotes.service";
import { quoteAction, renoteAction } from "./renote.action";
import type { SaveResult } from "./write.service";
import { deletePost } from "./delete.action";
import { editNoteAction } from "./edit.action";
import { postAction } from "./post.action";
import { htmlToText, sanitizeHtml } from "../../lib/sanitize";
import { listFeed } from "../feed/feed.service";
import { actionOf } from "../federation/federate";

const UserNotesQuery = OwnerListQuery.extend({ xlabel: z.string().max(100).optional() }).refine(...OWNER_REQUIRED);

const list = createRoute({
  method: "get",
  path: "/",
  summary: "A person's notes, by uid or username (optionally one x-label)",
  request: { query: UserNotesQuery },
  responses: { 200: typed<Answer<typeof ownerNotesRead>>("One page of notes") },
});
const one = createRoute({
  method: "get",
  path: "/{id}",
  summary: "A note",
  request: { params: IdParam },
  responses: { 200: typed<Answer<typeof getNote>>("The note") },
});
const history = createRoute({
  method: "get",
  path: "/{id}/history",
  summary: "A note's earlier versions",
  request: { params: IdParam },
  responses: { 200: typed<Answer<typeof noteHistory>>("The versions, newest first") },
});
const byAddress = createRoute({
  method: "get",
  path: "/{username}/{id}",
  summary: "A note at its address (its author's name and its id)",
  request: { params: AddressParam },
  responses: { 200: typed<Answer<typeof getNote>>("The note") },
});
const take = createRoute({
  method: "post",
  path: "/",
  summary: "Take a note",
  ...signedIn(readBody),
  request: { body: jsonBody(NoteInput) },
  responses: { 201: typed<SaveResult>("The new note") },
});
const edit = createRoute({
  method: "patch",
  path: "/",
  summary: "Edit your note",
  ...signedIn(readBody),
  request: { body: jsonBody(NoteInput) },
  responses: { 200: typed<SaveResult>("The note as saved") },
});
const remove = createRoute({
  method: "delete",
  path: "/{id}",
  summary: "Delete your note",
  ...signedIn(),
  request: { params: IdParam },
  responses: { 200: json(Ok, "Deleted") },
});

export const notes = router()
  .openapi(list, async (c) => {
    const q = c.req.valid("query");
    const owner = { uid: q.uid, username: q.username };
    return c.json(await readOne(c.var.db, ownerNotesRead(c.var.db, owner, q.xlabel, q, c.var.user?.id ?? null)), 200);
  })
  .openapi(one, async (c) => c.json(await getNote(c.var.db, c.req.valid("param").id, c.var.user?.id ?? null), 200))
  .openapi(history, async (c) =>
    c.json(await noteHistory(c.var.db, c.req.valid("param").id, c.var.user?.id ?? null), 200),
  )
  .openapi(byAddress, async (c) => {
    const { id, username } = c.req.valid("param");
    return c.json(await getNote(c.var.db, id, c.var.user?.id ?? null, username), 200);
  })
  .openapi(take, async (c) => {
    const data = c.req.valid("json");
    if (data.id) throw new AppError(422, "invalid_input", "Use PATCH to edit a note.");
    const { saved } = await postAction(actionOf(c), me(c).id, data);
    return c.json(saved, 201);
  })
  .openapi(edit, async (c) => {
    const data = c.req.valid("json");
    if (!data.id) throw new AppError(422, "invalid_input", "id is required", { id: "id is required" });
    const { saved } = await editNoteAction(actionOf(c), me(c).id, data.id, data);
    return c.json(saved, 200);
  })
  .openapi(remove, async (c) => {
    await deletePost(actionOf(c), me(c).id, { kind: "note", id: c.req.valid("param").id });
    return c.json({ ok: true as const }, 200);
  });

const discover = createRoute({
  method: "get",
  path: "/discover",
  summary: "Discover: everyone's newest notes",
  request: { query: ListQuery },
  responses: { 200: typed<Answer<typeof listNotes>>("One page of notes") },
});
const following = createRoute({
  method: "get",
  path: "/feeds",
  summary: "Following: the notes of the people you follow",
  ...signedIn(),
  request: { query: ListQuery },
  responses: { 200: typed<Answer<typeof listFeed>>("One page of notes") },
});
const tagged = createRoute({
  method: "get",
  path: "/tags/{tag}",
  summary: "Notes with a hashtag",
  request: { params: z.object({ tag: z.string().min(1).max(100) }), query: ListQuery },
  responses: { 200: typed<Answer<typeof tagRead>>("One page of notes") },
});
// Hono has decoded the path once; a second decode broke "100% done".
const labelled = createRoute({
  method: "get",
  path: "/labels/{label}",
  summary: "Notes under an x-label",
  request: { params: z.object({ label: z.string().min(1).max(100) }), query: ListQuery },
  responses: { 200: typed<Answer<typeof labelRead>>("One page of notes") },
});

export const feeds = router()
  .openapi(discover, async (c) =>
    c.json(await listNotes(c.var.db, LISTS.discover, {}, c.req.valid("query"), c.var.user?.id ?? null), 200),
  )
  .openapi(following, async (c) => c.json(await listFeed(c.var.db, me(c).id, c.req.valid("query")), 200))
  .openapi(tagged, async (c) =>
    c.json(
      await readOne(
        c.var.db,
        tagRead(c.var.db, c.req.valid("param").tag, c.req.valid("query"), c.var.user?.id ?? null),
      ),
      200,
    ),
  )
  .openapi(labelled, async (c) =>
    c.json(
      await readOne(
        c.var.db,
        labelRead(c.var.db, c.req.valid("param").label, c.req.valid("query"), c.var.user?.id ?? null),
      ),
      200,
    ),
  );

const share = createRoute({
  method: "post",
  path: "/",
  summary: "Renote a note, or quote it with a note of your own",
  ...signedIn(readBody),
  request: { body: jsonBody(RenoteInput) },
  responses: { 201: typed<Shared>("The renote or the quote") },
});
const unshare = createRoute({
  method: "delete",
  path: "/{id}",
  summary: "Take a renote back",
  ...signedIn(),
  request: { params: IdParam },
  responses: { 200: typed<Shared>("Renoted no more") },
});

export const renotes = router()
  .openapi(share, async (c) => {
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
    const { done } = txt.trim()
      ? await quoteAction(actionOf(c), me(c).id, renote_id, html, txt)
      : await renoteAction(actionOf(c), me(c).id, renote_id, true);
    return c.json(done, 201);
  })
  .openapi(unshare, async (c) => {
    const { done } = await renoteAction(actionOf(c), me(c).id, c.req.valid("param").id, false);
    return c.json(done, 200);
  });
