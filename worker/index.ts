import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// The Remix server build, produced by `npm run build` before wrangler bundles this file.
// @ts-ignore -- generated at build time, has no types
import * as build from "../build/server";
import { createApp } from "./app";

const handleRemix = createRequestHandler(build as unknown as ServerBuild);

export default createApp((request, loadContext) => handleRemix(request, loadContext));
