// Demo data for `npm start`: idempotent (INSERT OR IGNORE on fixed ids and unique names), written
// as one SQL file applied with wrangler to the local D1. Every demo user's password is "demo1234".
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { passwordHash as hash } from "./password-hash.mjs";

const q = (v) =>
  v === null || v === undefined ? "NULL" : typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`;

export const DEMO_USERS = [
  {
    id: 1,
    username: "adalovelace",
    fullname: "Ada Lovelace",
    email: "ada@notex.dev",
    descr: "First programmer. Notes on engines and poetry.",
  },
  {
    id: 2,
    username: "gracehopper",
    fullname: "Grace Hopper",
    email: "grace@notex.dev",
    descr: "Compilers, COBOL and nanoseconds.",
  },
  {
    id: 3,
    username: "alanturing",
    fullname: "Alan Turing",
    email: "alan@notex.dev",
    descr: "Machines, morphogenesis and long runs.",
  },
  {
    id: 4,
    username: "katherinej",
    fullname: "Katherine Johnson",
    email: "katherine@notex.dev",
    descr: "Trajectories and orbital mechanics.",
  },
];

const sql = [];
for (const u of DEMO_USERS) {
  sql.push(
    `INSERT OR IGNORE INTO users (id, username, email, fullname, password_hash, descr, confirmed) VALUES (${q(u.id)}, ${q(u.username)}, ${q(u.email)}, ${q(u.fullname)}, ${q(hash("demo1234"))}, ${q(u.descr)}, 1);`,
  );
}

// Feature seeds append their own idempotent statements (see scripts/seed-*.mjs).
const extra = await Promise.all(
  ["./seed-content.mjs", "./seed-folders.mjs"].map((m) =>
    import(m)
      .then((mod) => mod.default?.({ q, users: DEMO_USERS }) ?? [])
      .catch((e) => (e.code === "ERR_MODULE_NOT_FOUND" ? [] : Promise.reject(e))),
  ),
);
for (const lines of extra) sql.push(...lines);

mkdirSync(".wrangler", { recursive: true });
writeFileSync(".wrangler/seed.sql", `${sql.join("\n")}\n`);
const persist = process.argv.includes("--persist-to")
  ? ["--persist-to", process.argv[process.argv.indexOf("--persist-to") + 1]]
  : [];
execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", ...persist, "--file", ".wrangler/seed.sql"], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
});
console.log(
  `seeded ${DEMO_USERS.length} demo users (password demo1234): ${DEMO_USERS.map((u) => u.username).join(", ")}`,
);
