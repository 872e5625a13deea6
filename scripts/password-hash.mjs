// A password hash in the worker's own format (worker/lib/password.ts), for accounts the scripts
// write straight into a local D1 (demo seed, the e2e server's moderator).
import { pbkdf2Sync, randomBytes } from "node:crypto";

export function passwordHash(pw) {
  const salt = randomBytes(16);
  const h = pbkdf2Sync(pw, salt, 100_000, 32, "sha256");
  return `pbkdf2-sha256$100000$${salt.toString("base64")}$${h.toString("base64")}`;
}
