import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// The Remix server build, produced by `npm run build` before wrangler bundles this file.
// biome-ignore lint/suspicious/noTsIgnore: the build may or may not exist when typechecking
// @ts-ignore -- generated at build time, has no types
import * as build from "../build/server";
import { createApp, queue, scheduled } from "./app";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { withShellLoaders } from "./lib/shell";

const handleRemix = createRequestHandler(withShellLoaders(build as unknown as ServerBuild));

const app = createApp((request, loadContext) => handleRemix(request, loadContext as unknown as AppLoadContext));

export default { fetch: app.fetch, scheduled, queue };
