// `npm run role -- <username> <user|moderator|admin>` sets a user's role on the local D1;
// `-- --remote` on production's ([env.production], wrangler's login), `-- --persist-to DIR` on another local state.
import { execFileSync } from "node:child_process";
import { d1Local } from "./d1-local.mjs";

const ROLES = ["user", "moderator", "admin"];
const args = process.argv.slice(2);
const remote = args.includes("--remote");
const at = args.indexOf("--persist-to");
const persistTo = at >= 0 ? args[at + 1] : undefined;
const [username, role] = args.filter((a, i) => !a.startsWith("--") && (at < 0 || i !== at + 1));

// Both are checked against fixed shapes, so they can sit in the SQL text as literals.
if (!username || !/^[a-z][a-z0-9_]{0,99}$/i.test(username) || !ROLES.includes(role)) {
  console.error(`usage: npm run role -- <username> <${ROLES.join("|")}> [--remote] [--persist-to DIR]`);
  process.exit(2);
}
const sql = `update users set role = '${role}' where lower(username) = lower('${username}') returning username, role;`;

function remoteD1(statement) {
  const out = execFileSync(
    "npx",
    ["wrangler", "d1", "execute", "DB", "--remote", "--env", "production", "--json", "--command", statement],
    {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    },
  );
  return JSON.parse(out).flatMap((r) => r.results ?? []);
}

const rows = remote ? remoteD1(sql) : d1Local(sql, persistTo);
if (!rows.length) {
  console.error(`role: no user named ${username}${remote ? " (remote)" : ""}`);
  process.exit(1);
}
console.log(`role: ${rows[0].username} is now ${rows[0].role}${remote ? " (remote)" : ""}`);
