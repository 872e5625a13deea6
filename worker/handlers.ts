import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// The Remix server build, produced by `npm run build` before wrangler bundles this file.
// biome-ignore lint/suspicious/noTsIgnore: the build may or may not exist when typechecking
// @ts-ignore -- generated at build time, has no types
import * as build from "../build/server";
import { createApp, queue, type RequestD1Hook, scheduled } from "./app";
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { AppEnv } from "./env";
import { withShellLoaders } from "./lib/shell";

/**
 * The worker's handlers: the app with the Remix pages, the cron and the queue consumer. The deployed
 * entry (index.ts) takes them as they are; the bench's (bench/entry.ts) adds its D1 hook.
 */
export function workerWith(hooks: { requestD1?: RequestD1Hook } = {}) {
  const handleRemix = createRequestHandler(withShellLoaders(build as unknown as ServerBuild));
  const app = createApp(
    (request, loadContext) => handleRemix(request, loadContext as unknown as AppLoadContext),
    hooks,
  );
  const fetch: ExportedHandlerFetchHandler<AppEnv["Bindings"]> = (request, env, ctx) => app.fetch(request, env, ctx);
  return { fetch, scheduled, queue };
}
