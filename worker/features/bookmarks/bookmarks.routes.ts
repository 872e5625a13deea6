import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { me } from "../../lib/session";
import { type Answer, router, signedIn, typed } from "../../lib/validate";
import { IdParam, ListQuery, orElse } from "../../lib/params";
import { KindQuery } from "../content/content";
import { bookmark, isBookmarked, listBookmarks } from "./bookmarks.service";

const list = createRoute({
  method: "get",
  path: "/",
  summary: "Your bookmarks: notes, or replies",
  ...signedIn(),
  request: { query: ListQuery.extend({ t: orElse(z.enum(["note", "rep", "reply"]), "note") }) },
  responses: { 200: typed<Answer<typeof listBookmarks>>("One page of bookmarks") },
});
const state = createRoute({
  method: "get",
  path: "/{id}",
  summary: "Whether you bookmarked it",
  ...signedIn(),
  request: { params: IdParam, query: KindQuery },
  responses: { 200: typed<Answer<typeof isBookmarked>>("Bookmarked or not") },
});
const toggle = <M extends "post" | "delete">(method: M, summary: string) =>
  createRoute({
    method,
    path: "/{id}",
    summary,
    ...signedIn(),
    request: { params: IdParam, query: KindQuery },
    responses: { 200: typed<Answer<typeof bookmark>>("Bookmarked or not, now") },
  });

export const bookmarkRoutes = router()
  .openapi(list, async (c) => c.json(await listBookmarks(c.var.db, me(c).id, c.req.valid("query")), 200))
  .openapi(state, async (c) =>
    c.json(await isBookmarked(c.var.db, me(c).id, c.req.valid("query").t, c.req.valid("param").id), 200),
  )
  .openapi(toggle("post", "Bookmark a note, reply or folder"), async (c) =>
    c.json(await bookmark(c.var.db, me(c).id, c.req.valid("query").t, c.req.valid("param").id, true), 200),
  )
  .openapi(toggle("delete", "Remove a bookmark"), async (c) =>
    c.json(await bookmark(c.var.db, me(c).id, c.req.valid("query").t, c.req.valid("param").id, false), 200),
  );
