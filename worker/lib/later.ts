import type { Context } from "hono";

/**
 * Runs `work` after the response, through the execution context's waitUntil (a page's in-process
 * API calls are given the page's). Without one (a test calling the app bare) it is awaited. A
 * failure is logged, never sent to the client.
 */
export async function later(c: Context, what: string, work: () => Promise<unknown>): Promise<void> {
  const run = work().catch((e) => console.error(what, (e as Error)?.message ?? e));
  let ctx: { waitUntil(p: Promise<unknown>): void } | undefined;
  try {
    ctx = c.executionCtx;
  } catch {}
  if (ctx) ctx.waitUntil(run);
  else await run;
}
