import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv, Env } from "../env";
import { tooMany } from "./errors";

export const clientIp = (c: Context<AppEnv>): string => addressOf(c.env, c.req.raw.headers);

/** The client's address from a request's headers (a page's loader has no Hono context). */
function addressOf(env: Env, headers: Headers): string {
  // wrangler dev gives every local browser the same address; the e2e server (and only it) opts in
  // to a per-test client id so parallel tests do not share one budget.
  const testClient = env.TRUST_TEST_CLIENT_HEADER === "1" ? headers.get("x-test-client") : null;
  if (testClient) return `t:${testClient}`;
  return headers.get("cf-connecting-ip") ?? headers.get("x-real-ip") ?? "local";
}

/** Refuses with 429 when the binding says the key is over its budget; absent binding = no limit. */
export async function rateLimit(binding: RateLimit | undefined, key: string): Promise<void> {
  if (!binding) return;
  const { success } = await binding.limit({ key });
  if (!success) throw tooMany();
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Search, the costliest read, has a budget per client, as Mastodon's (300 per 5 minutes for a
 * person): RL_SEARCH 60 per 60 s per signed-in person (whatever their address), RL_SEARCH_VISITOR
 * 20 per 60 s per visitor address. The page /search spends the same budget (its in-process call).
 */
export const searchLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  await spendSearch(c);
  await next();
};

/** One search from the budget above (also spent by a look-up of someone on another server). */
export async function spendSearch(c: Context<AppEnv>): Promise<void> {
  if (!(await searchAllowed(c.env, c.var.user?.id ?? null, c.req.raw.headers))) throw tooMany();
}

/** Spends one search from the budget of a person (`uid`) or a visitor's address: whether it was left. */
export async function searchAllowed(env: Env, uid: number | null, headers: Headers): Promise<boolean> {
  const [binding, key] = uid ? [env.RL_SEARCH, `s:${uid}`] : [env.RL_SEARCH_VISITOR, `s:${addressOf(env, headers)}`];
  return binding ? (await binding.limit({ key })).success : true;
}

/**
 * Every write by a signed-in user spends from one per-user budget (RL_WRITE: 60 per 10 s), so a
 * script hammering like/follow/reply/note gets 429 while a person never notices.
 */
export const writeLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!SAFE.has(c.req.method) && c.var.user) await rateLimit(c.env.RL_WRITE, `w:${c.var.user.id}`);
  await next();
};
