// GET /v1/health/ready (issue 14): each binding the worker cannot serve without, touched once and
// as cheaply as it allows (one `select 1` on D1, a HEAD of an absent R2 object, a read of an absent
// key in the sessions' KV), so a deploy (scripts/deploy.mjs) or a monitor learns which one is
// broken. Mail (EMAIL) is not
// probed: the binding has no read-only call, and a failed send is logged without failing a request.
// /v1/health touches nothing and stays the floor the bench measures against.
import type { Env } from "../env";

export type Readiness = Record<"d1" | "r2" | "kv", string>;

// The answer is public, so it names the binding and no more; the error itself goes to the logs.
const probe = async (name: string, touch: () => Promise<unknown>): Promise<string> => {
  try {
    await touch();
    return "ok";
  } catch (e) {
    console.error(JSON.stringify({ t: "not_ready", binding: name, error: e instanceof Error ? e.message : String(e) }));
    return "failed";
  }
};

export async function readiness(env: Env): Promise<Readiness> {
  const [d1, r2, kv] = await Promise.all([
    probe("d1", () => env.DB.prepare("select 1").first()),
    probe("r2", () => env.IMAGES.head("health/ready")),
    probe("kv", () => env.SESSIONS.get("health/ready")),
  ]);
  return { d1, r2, kv };
}
