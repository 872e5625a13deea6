// The deployed worker (wrangler.toml's main): nothing of the bench in it (scripts/deploy.mjs checks
// the dry-run bundle for the bench's markers).
import { workerWith } from "./handlers";

export default workerWith();

// The live sockets' Durable Object (wrangler.toml [[durable_objects.bindings]]) is exported by the entry.
export { LiveHub } from "./features/live/hub";
