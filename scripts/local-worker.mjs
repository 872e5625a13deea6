// The built worker on loopback, for the bench, the soak and Lighthouse: wrangler's dev server in a child
// process (scripts/worker-process.mjs) with its own local D1 state and extra vars; resolves once
// /v1/health answers. stop() ends the child and its workerd.
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * A new local D1 state under `persist`: the old one removed, the migrations applied, then `sql`
 * (more statements, each ending with ";") if given.
 *
 * One `wrangler d1 execute` of every migration in order, each followed by the row that
 * `wrangler d1 migrations apply` records for it (same table, same SQL as wrangler's own), so a later
 * `migrations apply` sees them all applied. `migrations apply --local` starts a local runtime per
 * migration: about 30 CPU-seconds for 41 migrations, where one run takes 3.
 */
export function freshLocalD1(persist, env = process.env, sql = "") {
  rmSync(persist, { recursive: true, force: true });
  const migrations = readdirSync("migrations")
    .filter((name) => name.endsWith(".sql"))
    .sort();
  const all = [
    `CREATE TABLE IF NOT EXISTS "d1_migrations"(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`,
    ...migrations.map(
      (name) => `${readFileSync(`migrations/${name}`, "utf8")}\nINSERT INTO "d1_migrations" (name) values ('${name}');`,
    ),
    sql,
  ].join("\n");
  mkdirSync(".wrangler", { recursive: true });
  const file = `.wrangler/fresh-d1-${process.pid}.sql`;
  writeFileSync(file, `${all}\n`);
  try {
    execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", persist, "--file", file], {
      stdio: "ignore",
      env,
    });
  } finally {
    rmSync(file, { force: true });
  }
}

export async function startLocalWorker({
  port,
  persist,
  vars = {},
  entry = undefined,
  env = process.env,
  tries = 240,
}) {
  // Something already answering there would pass the readiness check below in our worker's place.
  const busy = await fetch(`http://127.0.0.1:${port}/v1/health`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${port} is already in use`);
  const child = spawn(
    process.execPath,
    ["scripts/worker-process.mjs", JSON.stringify({ port, persist, vars, entry })],
    {
      // Bundled as `wrangler deploy` bundles it: wrangler's dev server otherwise defines NODE_ENV as
      // "development", which puts React's development build (several times slower to render) into
      // the worker, so the bench and Lighthouse would time a server that never ships.
      env: { ...env, NODE_ENV: "production" },
      stdio: ["ignore", "ignore", "inherit"],
      detached: true,
    },
  );
  // The child disposes wrangler (and its workerd) on SIGTERM; the group goes after, if still there.
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    try {
      process.kill(child.pid, "SIGTERM");
    } catch {}
    await Promise.race([exited, sleep(5000)]);
    try {
      process.kill(-child.pid, "SIGKILL");
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
