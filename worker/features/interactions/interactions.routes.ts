import { createRoute } from "@hono/zod-openapi";
import { IdParam } from "../../lib/params";
import { me } from "../../lib/session";
import { type Answered, router, signedIn, typed } from "../../lib/validate";
import { KindQuery } from "../content/content";
import type { MarkKind } from "./kinds";
import { isMarked, type MarkState, mark } from "./interactions.service";

/** POST (on) or DELETE (off) `/{id}?t=kind`: the shape of every on/off interaction's write. */
export const toggleRoute = <M extends "post" | "delete", A extends Answered>(method: M, summary: string, answer: A) =>
  createRoute({
    method,
    path: "/{id}",
    summary,
    ...signedIn(),
    request: { params: IdParam, query: KindQuery },
    responses: { 200: answer },
  });

/** What a private mark's routes say in the API's document. */
export interface MarkWords {
  state: string;
  on: string;
  off: string;
}

/** GET (its state), POST and DELETE `/{id}?t=kind` of a private mark, all signed in. */
export function markRoutes<S extends string>(k: MarkKind<S>, words: MarkWords) {
  const answer = typed<MarkState<S>>(`Whether it is ${k.state}`);
  const state = createRoute({
    method: "get",
    path: "/{id}",
    summary: words.state,
    ...signedIn(),
    request: { params: IdParam, query: KindQuery },
    responses: { 200: answer },
  });
  return router()
    .openapi(state, async (c) =>
      c.json(await isMarked(k, c.var.db, me(c).id, c.req.valid("query").t, c.req.valid("param").id), 200),
    )
    .openapi(toggleRoute("post", words.on, answer), async (c) =>
      c.json(await mark(k, c.var.db, me(c).id, c.req.valid("query").t, c.req.valid("param").id, true), 200),
    )
    .openapi(toggleRoute("delete", words.off, answer), async (c) =>
      c.json(await mark(k, c.var.db, me(c).id, c.req.valid("query").t, c.req.valid("param").id, false), 200),
    );
}
