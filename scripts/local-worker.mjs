// The built worker under `wrangler dev` on loopback, for the bench and the soak: its own local D1
// state, extra vars, quiet logs; resolves once /v1/health answers. stop() ends its process group.
import { spawn } from "node:child_process";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function startLocalWorker({ port, persist, vars = {}, env = process.env, tries = 240 }) {
  const varArgs = Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const child = spawn(
    "npx",
    [
      "wrangler",
      "dev",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--persist-to",
      persist,
      "--inspector-port",
      String(port + 1000),
      ...varArgs,
      "--log-level",
      "error",
      "--show-interactive-dev-session=false",
    ],
    // Its own dev registry, so other wrangler dev instances never reload it.
    {
      env: { ...env, WRANGLER_REGISTRY_PATH: `${persist}-registry` },
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
    },
  );
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  };
  for (let i = 0; i < tries; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/v1/health`)).ok) return { child, stop };
    } catch {}
    await sleep(500);
  }
  stop();
  throw new Error("worker did not start");
}
