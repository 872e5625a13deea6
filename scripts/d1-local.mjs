// Runs SQL on the local (wrangler) D1 and answers the rows of every statement, for the scripts.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";

/** @param {string} sql one or more statements, each ending with ";" @param {string} [persistTo] */
export function d1Local(sql, persistTo) {
  mkdirSync(".wrangler", { recursive: true });
  const file = `.wrangler/d1-local-${process.pid}.sql`;
  writeFileSync(file, `${sql}\n`);
  const persist = persistTo ? ["--persist-to", persistTo] : [];
  try {
    const out = execFileSync(
      "npx",
      ["wrangler", "d1", "execute", "DB", "--local", ...persist, "--json", "--file", file],
      {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
        env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      },
    );
    return JSON.parse(out).flatMap((r) => r.results ?? []);
  } finally {
    rmSync(file, { force: true });
  }
}
