// Child process of local-worker.mjs: the built worker through wrangler's own dev server API, with
// the DevTools inspector off. (Under `wrangler dev` the inspector proxy records every D1 call as a
// Network event and ships it to wrangler's debug log: a per-query cost that the edge never has.)
// Args: JSON { port, persist, vars, assets? } (assets: a directory to serve instead of wrangler.toml's).
import { unstable_startWorker } from "wrangler";

const { port, persist, vars = {}, assets } = JSON.parse(process.argv[2]);
const worker = await unstable_startWorker({
  config: "wrangler.toml",
  ...(assets ? { assets } : {}),
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
