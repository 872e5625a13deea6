// Mastodon's /api/v1/domain_blocks: a person's own blocked servers (domain-blocks.service.ts), as
// Mastodon answers them: a list of domain strings newest first, paged by the block's id in the
// Link header; POST and DELETE take `domain` from the query or the body (form or JSON: apps send
// DELETE with a body, which masto.http.ts fieldsOf reads) and answer {}.
import { Hono } from "hono";
import { z } from "zod";
import { siteOriginOf } from "../federation/context";
import { blockServerAction } from "../safety/domain-block.action";
import { hostOf, serversOf, unblockServer } from "../safety/domain-blocks.service";
import {
  acting,
  input,
  limitOf,
  type MastoContext,
  type MastoEnv,
  queryOf,
  scoped,
  setLink,
  viewer,
} from "./masto.http";

const Domain = z.object({ domain: z.string().trim().min(1, "can't be blank").max(253, "is too long") });
const Id = z
  .string()
  .regex(/^\d{1,16}$/)
  .transform(Number)
  .optional()
  .catch(undefined);
const Paging = z.object({ max_id: Id, since_id: Id, min_id: Id });

const domainOf = async (c: MastoContext) => (await input(c, Domain)).domain;

export const domainBlockRoutes = new Hono<MastoEnv>()
  .get("/api/v1/domain_blocks", scoped("read:blocks"), async (c) => {
    const q = await queryOf(c, Paging);
    const list = await serversOf(
      c.var.db,
      viewer(c).id,
      { page: 1, maxId: q.max_id, sinceId: q.since_id, minId: q.min_id },
      limitOf(c, "domains"),
    );
    const items = list.domains;
    // Older ones may follow a full page (or any page walked upward from min_id); newer, any page.
    const older = items.length && (list.more || q.min_id !== undefined) ? String(items.at(-1)?.id) : null;
    setLink(c, older, items.length ? String(items[0].id) : null);
    return c.json(items.map((d) => d.domain));
  })
  .post("/api/v1/domain_blocks", scoped("write:blocks"), async (c) => {
    const host = hostOf(await domainOf(c), new URL(siteOriginOf(c.env, c.req.url)).host);
    await blockServerAction(acting(c), viewer(c).id, host);
    return c.json({});
  })
  .delete("/api/v1/domain_blocks", scoped("write:blocks"), async (c) => {
    await unblockServer(c.var.db, viewer(c).id, await domainOf(c));
    return c.json({});
  });
