// The worker as `npm run bench` runs it (scripts/bench/run.mjs starts it in place of worker/index.ts,
// which is what deploys): the same handlers, plus each request's D1 trips recorded for its row's bare
// twin (its D1 trips and platform calls) and the twins' routes ahead of the app (twins.ts).
import type { AppEnv } from "../env";
import { workerWith } from "../handlers";
import { benchRecorder, benchTwin } from "./twins";

const worker = workerWith({ requestD1: benchRecorder });

const fetch: ExportedHandlerFetchHandler<AppEnv["Bindings"]> = (request, env, ctx) =>
  benchTwin(request, env, ctx) ?? worker.fetch(request, env, ctx);

/**
 * Queue messages are taken off without being worked on: on Cloudflare the consumer runs in
 * invocations of its own, while under wrangler's dev server it would share the measured requests'
 * cores (the bench's 10,000 followers sit on unreachable servers). The fan-out itself is proven in
 * tests/api/federation-fanout.test.ts.
 */
const queue = async (batch: MessageBatch<unknown>) => batch.ackAll();

export default { fetch, scheduled: worker.scheduled, queue };

export { LiveHub } from "../features/live/hub";
