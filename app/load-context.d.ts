import type { CurrentUser, Env } from "../worker/env";

declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    cloudflare: { env: Env; ctx: ExecutionContext };
    nonce?: string;
    /** The app shell's render (worker/lib/shell.ts): page loaders answer null, the root draws the frame. */
    shell?: boolean;
    /** Who is signed in, read once by the worker before any loader runs (null: a visitor). */
    user?: CurrentUser | null;
  }
}
