// Demo data for `npm start`: idempotent (INSERT OR IGNORE on fixed ids and unique names), written
// as one SQL file applied with wrangler to the local D1. Every demo user's password is "demo1234".
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { passwordHash as hash } from "./password-hash.mjs";
import { avatar, cover, keyOf, scene, storeImages } from "./seed-images.mjs";
import { COUNTERS, repairStatements } from "../worker/db/recount.js";
import { PEOPLE } from "./seed-people.mjs";

const started = performance.now();
const q = (v) =>
  v === null || v === undefined ? "NULL" : typeof v === "number" ? String(v) : `'${String(v).replace(/'/g, "''")}'`;

export const DEMO_USERS = [
  ["adalovelace", "Ada Lovelace", "First programmer. Notes on engines and poetry.", "#7c3aed", "#f472b6"],
  ["gracehopper", "Grace Hopper", "Compilers, COBOL and nanoseconds.", "#1d4ed8", "#22d3ee"],
  ["alanturing", "Alan Turing", "Machines, morphogenesis and long runs.", "#166534", "#a3e635"],
  ["katherinej", "Katherine Johnson", "Trajectories and orbital mechanics.", "#0f172a", "#60a5fa"],
  ["margarethamilton", "Margaret Hamilton", "Software engineering, the Apollo way.", "#9a3412", "#fbbf24"],
  ["tim_bl", "Tim Berners-Lee", "Hypertext, the web, and keeping it open.", "#0e7490", "#34d399"],
  ["hedylamarr", "Hedy Lamarr", "Frequency hopping between film takes.", "#831843", "#fb7185"],
  ["dennisritchie", "Dennis Ritchie", "C, Unix, and small sharp tools.", "#3f3f46", "#a1a1aa"],
  ["radiaperlman", "Radia Perlman", "Spanning trees and network poetry.", "#4d7c0f", "#fde047"],
  ["donknuth", "Donald Knuth", "Literate programs and careful typesetting.", "#7f1d1d", "#fca5a5"],
].map(([username, fullname, descr, from, to], i) => ({
  id: i + 1,
  username,
  fullname,
  email: `${username.replace(/_/g, "")}@notex.dev`,
  descr,
  colors: [from, to],
}));

const persistTo = process.argv.includes("--persist-to")
  ? process.argv[process.argv.indexOf("--persist-to") + 1]
  : undefined;
const images = [];
for (const u of DEMO_USERS) {
  u.avatarKey = keyOf(u.id, "avatar", "face");
  u.coverKey = keyOf(u.id, "cover", "hills");
  images.push({ key: u.avatarKey, uid: u.id, purpose: "avatar", draw: () => avatar(...u.colors, u.id) });
  images.push({ key: u.coverKey, uid: u.id, purpose: "cover", draw: () => cover(u.colors[1], u.colors[0], u.id) });
}

const sql = [];
const password = hash("demo1234");
for (const u of DEMO_USERS) {
  sql.push(
    `INSERT OR IGNORE INTO users (id, username, email, fullname, password_hash, descr, avatar, cover, confirmed) VALUES (${q(u.id)}, ${q(u.username)}, ${q(u.email)}, ${q(u.fullname)}, ${q(password)}, ${q(u.descr)}, ${q(`/img/${u.avatarKey}`)}, ${q(`/img/${u.coverKey}`)}, 1);`,
    // A demo person seeded before pictures existed gets them (never over one chosen since).
    `UPDATE users SET avatar = ${q(`/img/${u.avatarKey}`)}, cover = ${q(`/img/${u.coverKey}`)} WHERE id = ${u.id} AND username = ${q(u.username)} AND avatar = '' AND cover = '';`,
  );
}

// Feature seeds append their own idempotent statements (see scripts/seed-*.mjs).
const extra = await Promise.all(
  ["./seed-content.mjs", "./seed-folders.mjs", "./seed-people.mjs"].map((m) =>
    import(m)
      .then((mod) => mod.default?.({ q, users: DEMO_USERS, images, keyOf, scene, password, now: Date.now() }) ?? [])
      .catch((e) => (e.code === "ERR_MODULE_NOT_FOUND" ? [] : Promise.reject(e))),
  ),
);
for (const lines of extra) sql.push(...lines);
sql.push(...(await storeImages(images, persistTo, q)));
// Every counter made exact from the rows it counts (the same SQL as `npm run recount`).
sql.push(...COUNTERS.flatMap(repairStatements).map((s) => `${s};`));

mkdirSync(".wrangler", { recursive: true });
writeFileSync(".wrangler/seed.sql", `${sql.join("\n")}\n`);
const persist = persistTo ? ["--persist-to", persistTo] : [];
execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", ...persist, "--file", ".wrangler/seed.sql"], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
});
console.log(
  `seeded ${DEMO_USERS.length + PEOPLE.length} demo users (password demo1234) and ${images.length} pictures in ${((performance.now() - started) / 1000).toFixed(1)} s: ${DEMO_USERS.map((u) => u.username).join(", ")} and ${PEOPLE.length} more`,
);
