// Rate-limit bursts against wrangler.toml's [[ratelimits]], which the pool enforces with fixed
// windows: a burst that straddles a window edge may get up to two budgets before its first 429.
import { expect } from "vitest";
import type { Res } from "./http";

export const WRITE_BUDGET = 60; // RL_WRITE, per user per 10 s
export const WRITE_WINDOW_MS = 10_000;
export const AUTH_BUDGET = 30; // RL_AUTH, per address and per account per 60 s
export const SEARCH_BUDGET = 60; // RL_SEARCH, per signed-in person per 60 s
export const SEARCH_VISITOR_BUDGET = 20; // RL_SEARCH_VISITOR, per visitor address per 60 s
export const TOO_MANY = "Too many requests, please try again.";

/** Sends `calls` at once; answers every status, after checking each 429 carries the spec's text. */
export async function fire(calls: (() => Promise<Res>)[]): Promise<number[]> {
  const all = await Promise.all(calls.map((c) => c()));
  for (const r of all.filter((r) => r.status === 429))
    expect(r.body).toMatchObject({ code: "rate_limited", message: TOO_MANY });
  return all.map((r) => r.status);
}

/**
 * 2 × budget + 1 calls at once: wherever a window edge falls and however slow the machine, at most
 * two windows' budgets pass, so some are refused; and none before a full budget went through.
 * Answers the statuses that were not 429.
 */
export async function burst(budget: number, call: (i: number) => Promise<Res>): Promise<number[]> {
  const statuses = await fire(Array.from({ length: 2 * budget + 1 }, (_, i) => () => call(i)));
  const answered = statuses.filter((s) => s !== 429);
  expect(answered.length, "refused before the budget was spent").toBeGreaterThanOrEqual(budget);
  expect(answered.length, "never refused").toBeLessThan(statuses.length);
  return answered;
}
