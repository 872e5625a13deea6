import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { tooMany } from "./errors";

export function clientIp(c: Context<AppEnv>): string {
  // wrangler dev gives every local browser the same address; the e2e server (and only it) opts in
  // to a per-test client id so parallel tests do not share one budget.
  const testClient = c.env.TRUST_TEST_CLIENT_HEADER === "1" ? c.req.header("x-test-client") : undefined;
  if (testClient) return `t:${testClient}`;
  return c.req.header("cf-connecting-ip") ?? c.req.header("x-real-ip") ?? "local";
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
  const user = c.var.user;
  if (user) await rateLimit(c.env.RL_SEARCH, `s:${user.id}`);
  else await rateLimit(c.env.RL_SEARCH_VISITOR, `s:${clientIp(c)}`);
}

/**
 * Every write by a signed-in user spends from one per-user budget (RL_WRITE: 60 per 10 s), so a
 * script hammering like/follow/reply/note gets 429 while a person never notices.
 */
export const writeLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!SAFE.has(c.req.method) && c.var.user) await rateLimit(c.env.RL_WRITE, `w:${c.var.user.id}`);
  await next();
};
