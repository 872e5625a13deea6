import { type AppLoadContext, data } from "@remix-run/cloudflare";
import { dbFor } from "../../worker/db/client";
import { known, type Outcome, type Read, readTogether } from "../../worker/db/reads";
import type { DB } from "../../worker/env";
import { AppError } from "../../worker/lib/errors";
import { ListQuery } from "../../worker/lib/params";
import { userRead } from "../../worker/features/users/users.read";
import { badgeCount } from "~/components/Shell";
import { dialogRead } from "./dialogs.server";
import type { ApiError } from "./errors";
import type { PageViewer } from "./viewer";

// A page's data is one D1 round trip, and the loader says so: it names the reads it needs, and
// `readPage` sends them in one batch together with the signed-in person's own record (the sidebar's
// card and the badge) and what an open dialog needs. The reads are the services' own (the /v1
// routes run the same ones alone), so the rules of what a person may see are written once.

/** How a page builds one of its reads, given the database and who is signed in (null: a visitor). */
export type PageRead<T> = (db: DB, viewerId: number | null) => Read<T>;

type Value<B> = B extends PageRead<infer T> ? T : never;

export interface ReadPage<B> {
  viewer: PageViewer;
  /** Each read's value or refusal, by the name the loader gave it. */
  reads: { [K in keyof B]: Outcome<Value<B[K]>> };
  /** The request's database, for a read that depends on another's answer (a second round trip). */
  db: DB;
}

/** A read that refuses before it is sent (bad input found while building it): no statement. */
const refused = (error: AppError): Read<never> => ({
  statements: [],
  value: () => {
    throw error;
  },
});

function built<T>(build: PageRead<T>, db: DB, viewerId: number | null): Read<T> {
  try {
    return build(db, viewerId);
  } catch (e) {
    if (e instanceof AppError) return refused(e);
    throw e;
  }
}

/** The signed-in person's id, read from KV before any loader ran (worker/app.ts), or null. */
export const viewerIdOf = (context: AppLoadContext) => context.user?.id ?? null;

/**
 * The page's reads, the person's record and the open dialog's data: one db.batch, one round trip
 * (none for a visitor on a page that reads nothing).
 */
export async function readPage<B extends Record<string, PageRead<unknown>>>(
  request: Request,
  context: AppLoadContext,
  builds: B,
): Promise<ReadPage<B>> {
  const db = dbFor(context.cloudflare.env.DB);
  const uid = viewerIdOf(context);
  const page: Record<string, Read<unknown>> = {};
  for (const [name, build] of Object.entries(builds)) page[name] = built(build, db, uid);
  const { $user, $dialogs, ...reads } = await readTogether(db, {
    $user: uid ? userRead(db, { id: uid }, uid) : known(null),
    $dialogs: uid ? built((d) => dialogRead(d, uid, new URL(request.url)), db, uid) : known({}),
    ...page,
  });
  // A session whose account is gone (deleted a moment ago) reads as a visitor.
  const user = $user.ok ? $user.data : null;
  const viewer: PageViewer = {
    user,
    badge: badgeCount(user?.stats),
    dialogs: user && $dialogs.ok ? $dialogs.data : {},
  };
  return { viewer, reads: reads as ReadPage<B>["reads"], db };
}

/** The page of someone with nothing of their own to read (About, a form): the person's record only. */
export const viewerOnly = async ({ request, context }: { request: Request; context: AppLoadContext }) => ({
  viewer: (await readPage(request, context, {})).viewer,
});

/**
 * The error page for a refusal, with the person's record so the sidebar stays theirs. Spec 2: a
 * detail read refused with 400, 404 or 422 is "not here"; a 410 (a note its author deleted) stays
 * a 410, the page saying so; anything else is a 500.
 */
export function notHere(viewer: PageViewer, status = 404) {
  return data({ viewer }, { status: [400, 404, 422].includes(status) ? 404 : status === 410 ? 410 : 500 });
}

/** A read's value, or the page's error page (notHere) for its refusal. */
export function must<T>(viewer: PageViewer, outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.data;
  throw notHere(viewer, outcome.error.status);
}

/** A list's page and cursor from the page's address, checked as the API checks them (a bad cursor is a 400). */
export function listParams(url: URL): { page: number; cursor?: string } {
  const parsed = ListQuery.safeParse({
    page: url.searchParams.get("page") ?? undefined,
    cursor: url.searchParams.get("cursor") ?? undefined,
  });
  if (!parsed.success) throw new AppError(400, "invalid_input", "invalid cursor");
  return parsed.data;
}

/** A refusal as pages show API errors (app/lib/errors.ts). */
export const apiErrorOf = (e: AppError): ApiError => ({
  status: e.status,
  code: e.code,
  message: e.message,
  ...(e.fields ? { fields: e.fields } : {}),
});

/**
 * A page whose own data is not a read of its own (a form, a call that is not D1's): its loader's
 * answer with the person's record beside it. A 404 it throws keeps the person's sidebar.
 */
export async function withViewer<T extends object>(
  args: { request: Request; context: AppLoadContext },
  own: () => Promise<T> | T,
): Promise<T & { viewer: PageViewer }> {
  const [page, answer] = await Promise.allSettled([readPage(args.request, args.context, {}), (async () => own())()]);
  if (page.status === "rejected") throw page.reason;
  const { viewer } = page.value;
  if (answer.status === "rejected") {
    const thrown = answer.reason;
    if (thrown instanceof Response && thrown.status === 404) throw notHere(viewer);
    throw thrown;
  }
  return { ...answer.value, viewer };
}
