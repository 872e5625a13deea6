// The bindings the test pool provides: the worker's own, plus the migrations to apply.
type NotexWorkerEnv = import("../worker/env").Env;
declare namespace Cloudflare {
  interface Env extends NotexWorkerEnv {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
    DB_B: D1Database;
    SESSIONS_B: KVNamespace;
  }
}
