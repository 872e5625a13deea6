import { createRoute, z } from "@hono/zod-openapi";
import { IdParam } from "../../lib/params";
import { me } from "../../lib/session";
import { type Answered, json, router, signedIn, typed } from "../../lib/validate";
import { KindQuery } from "../content/content";
import { actionOf } from "../federation/federate";
import type { MarkKind, RowEntry } from "./kinds";
import { isMarked, type MarkState, mark } from "./interactions.service";
import { rowAction } from "./rows.action";

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

/** What a counted interaction's routes say in the API's document. */
export interface RowWords {
  answer: string;
  on: string;
  off: string;
}

/**
 * POST and DELETE `/{id}?t=kind` of a counted interaction with a table of its own (a like), signed
 * in: its action, answered as `{ [state]: boolean, [counter]: number }` (`{ liked, likenum }`).
 */
export function rowRoutes<S extends string, C extends string>(
  k: RowEntry & { kind: { state: S; counter: C } },
  words: RowWords,
) {
  const { state, counter } = k.kind;
  const schema = z.object({ [state]: z.boolean(), [counter]: z.number().int() } as RowShape<S, C>);
  const answer = json(schema, words.answer);
  const said = (done: { on: boolean; count: number }) =>
    ({ [state]: done.on, [counter]: done.count }) as z.infer<typeof schema>;
  return router()
    .openapi(toggleRoute("post", words.on, answer), async (c) => {
      const target = { kind: c.req.valid("query").t, id: c.req.valid("param").id };
      return c.json(said(await rowAction(actionOf(c), k, me(c).id, target, true)), 200);
    })
    .openapi(toggleRoute("delete", words.off, answer), async (c) => {
      const target = { kind: c.req.valid("query").t, id: c.req.valid("param").id };
      return c.json(said(await rowAction(actionOf(c), k, me(c).id, target, false)), 200);
    });
}

type RowShape<S extends string, C extends string> = { [K in S]: z.ZodBoolean } & { [K in C]: z.ZodNumber };
