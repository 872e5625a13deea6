import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// The Remix server build, produced by `npm run build` before wrangler bundles this file.
// biome-ignore lint/suspicious/noTsIgnore: the build may or may not exist when typechecking
// @ts-ignore -- generated at build time, has no types
import * as build from "../build/server";
import { createApp, scheduled } from "./app";
import type { AppLoadContext } from "@remix-run/cloudflare";

const handleRemix = createRequestHandler(build as unknown as ServerBuild);

const app = createApp((request, loadContext) => handleRemix(request, loadContext as unknown as AppLoadContext));

export default { fetch: app.fetch, scheduled };
