import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// The Remix server build, produced by `npm run build` before wrangler bundles this file.
// biome-ignore lint/suspicious/noTsIgnore: the build may or may not exist when typechecking
// @ts-ignore -- generated at build time, has no types
import * as build from "../build/server";
import { createApp, queue, scheduled } from "./app";
import type { AppLoadContext } from "@remix-run/cloudflare";
import type { AppEnv } from "./env";
import { withShellLoaders } from "./lib/shell";
import { benchTwin } from "./lib/bench-twins";

const handleRemix = createRequestHandler(withShellLoaders(build as unknown as ServerBuild));

const app = createApp((request, loadContext) => handleRemix(request, loadContext as unknown as AppLoadContext));

// The bench's bare twins answer ahead of the app, and only under `npm run bench` (lib/bench-twins.ts).
const fetch: ExportedHandlerFetchHandler<AppEnv["Bindings"]> = (request, env, ctx) =>
  benchTwin(request, env) ?? app.fetch(request, env, ctx);

export default { fetch, scheduled, queue };

// The live sockets' Durable Object (wrangler.toml [[durable_objects.bindings]]) is exported by the entry.
export { LiveHub } from "./features/live/hub";
