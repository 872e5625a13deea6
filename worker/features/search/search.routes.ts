import { createRoute } from "@hono/zod-openapi";
import { searchLimit } from "../../lib/ratelimit";
import { router, typed } from "../../lib/validate";
import { SearchQuery } from "./search.schema";
import { search } from "./search.service";

const find = createRoute({
  method: "get",
  path: "/",
  summary: "Search notes, people, folders or replies",
  middleware: searchLimit,
  request: { query: SearchQuery },
  responses: { 200: typed<Awaited<ReturnType<typeof search>>>("One page of results of one kind") },
});

export const searchRoutes = router().openapi(find, async (c) =>
  c.json(await search(c.var.db, c.req.valid("query"), c.var.user?.id ?? null), 200),
);
