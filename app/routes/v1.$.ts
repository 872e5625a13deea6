import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Hono } from "hono";
import { api } from "../../worker/api";
import type { AppEnv } from "../../worker/env";
import { sameOrigin } from "../../worker/lib/csrf";
import { toErrorResponse } from "../../worker/lib/errors";

// Only reached under `npm run dev` (Vite serves everything through Remix there); in the built
// worker /v1 is answered by Hono before Remix ever sees the request. The same same-origin check as
// the worker's (lib/csrf.ts) comes first, so a cross-site write is refused here too.
const dev = new Hono<AppEnv>()
  .use(sameOrigin)
  .route("/", api as unknown as Hono<AppEnv>)
  .onError(toErrorResponse);

const forward = ({ request, context }: LoaderFunctionArgs | ActionFunctionArgs) =>
  dev.fetch(request, context.cloudflare.env, context.cloudflare.ctx);

export const loader = forward;
export const action = forward;
