// The production worker minus the Remix build (which vitest does not compile): same middleware, same /v1.
import { createApp } from "../worker/app";

export default createApp(async () => new Response("pages are tested by Playwright", { status: 404 }));
