// Local secrets live in .dev.vars (never committed); a fresh clone gets the example's local
// defaults so `npm start`, `npm run dev` and the e2e server can sign tokens and upload links.
import { copyFileSync, existsSync } from "node:fs";

const root = new URL("../", import.meta.url);
if (!existsSync(new URL(".dev.vars", root))) {
  copyFileSync(new URL(".dev.vars.example", root), new URL(".dev.vars", root));
  console.log("dev-vars: created .dev.vars from .dev.vars.example (local defaults)");
}
