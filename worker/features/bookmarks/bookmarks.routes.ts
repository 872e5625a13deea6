import { createRoute } from "@hono/zod-openapi";
import { z } from "zod";
import { me } from "../../lib/session";
import { type Answer, router, signedIn, typed } from "../../lib/validate";
import { ListQuery, orElse } from "../../lib/params";
import { markRoutes } from "../interactions/interactions.routes";
import { BOOKMARK } from "../interactions/kinds";
import { listBookmarks } from "./bookmarks.service";

const list = createRoute({
  method: "get",
  path: "/",
  summary: "Your bookmarks: notes, or replies",
  ...signedIn(),
  request: { query: ListQuery.extend({ t: orElse(z.enum(["note", "rep", "reply"]), "note") }) },
  responses: { 200: typed<Answer<typeof listBookmarks>>("One page of bookmarks") },
});

export const bookmarkRoutes = router()
  .openapi(list, async (c) => c.json(await listBookmarks(c.var.db, me(c).id, c.req.valid("query")), 200))
  .route(
    "/",
    markRoutes(BOOKMARK, {
      state: "Whether you bookmarked it",
      on: "Bookmark a note, reply or folder",
      off: "Remove a bookmark",
    }),
  );
