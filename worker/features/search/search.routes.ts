import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { searchLimit } from "../../lib/ratelimit";
import { query } from "../../lib/validate";
import { SearchQuery } from "./search.schema";
import { search } from "./search.service";

export const searchRoutes = new Hono<AppEnv>().get("/", searchLimit, query(SearchQuery), async (c) =>
  c.json(await search(c.var.db, c.req.valid("query"), c.var.user?.id ?? null)),
);
