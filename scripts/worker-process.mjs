// Child process of local-worker.mjs and e2e-server.mjs: the built worker through wrangler's own dev
// environment, with the DevTools inspector off. (Under `wrangler dev` the inspector proxy records
// every D1 call as a Network event and ships it to wrangler's debug log: a per-query cost that the
// edge never has.)
// Args: JSON { port, persist, vars, assets?, entry? } (assets: a directory to serve instead of
// wrangler.toml's; entry: a worker entry instead of its main, as the bench's worker/bench/entry.ts).
//
// Stdout, one line each: `worker <json>` when the user worker has loaded (its own loopback address
// and the header wrangler's proxy adds, so a caller may skip that proxy), then `ready`. Wrangler's
// proxy parks requests while it swaps the worker and answers a POST caught in the swap with 503
// "Your worker restarted mid-request"; nothing here asks for a swap (no watching, no live reload),
// so any event after the first load is printed on stderr with its time: a reload names its cause.
import { unstable_DevEnv } from "wrangler";

const { port, persist, vars = {}, assets, entry } = JSON.parse(process.argv[2]);
const devEnv = new unstable_DevEnv();
let loaded = false;
const dispatch = devEnv.dispatch.bind(devEnv);
devEnv.dispatch = (event) => {
  if (event.type === "reloadComplete") {
    const { userWorkerUrl: u, headers } = event.proxyData;
    process.stdout.write(`worker ${JSON.stringify({ url: `${u.protocol}//${u.hostname}:${u.port}`, headers })}\n`);
  }
  if (loaded && event.type !== "devRegistryUpdate") {
    const why = event.type === "error" ? ` ${event.source}: ${event.reason} ${event.cause?.message ?? ""}` : "";
    process.stderr.write(`worker-process: ${new Date().toISOString()} ${event.type}${why}\n`);
  }
  if (event.type === "reloadComplete") loaded = true;
  return dispatch(event);
};
const worker = await devEnv.startWorker({
  config: "wrangler.toml",
  ...(assets ? { assets } : {}),
  ...(entry ? { entrypoint: entry } : {}),
  bindings: Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, { type: "plain_text", value: String(v) }])),
  dev: {
    server: { hostname: "127.0.0.1", port },
    inspector: false,
    persist,
    watch: false,
    liveReload: false,
    logLevel: "error",
    registry: `${persist}-registry`,
  },
});
await worker.ready;
process.stdout.write("ready\n");
const stop = async () => {
  await worker.dispose().catch(() => {});
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
