import type { AppLoadContext } from "@remix-run/cloudflare";
import type { Read } from "../../worker/db/reads";
import type { DB } from "../../worker/env";
import type { NoteList } from "../../worker/features/notes/notes.types";
import { listParams, must, readPage } from "./page.server";

/**
 * A list's query for the API: page and cursor of the page's URL, passed through as they are, and
 * the list's own parameters (an undefined one is left out).
 */
export function listQuery<const E extends Record<string, string | undefined>>(
  url: URL,
  extra: E = {} as E,
): { page: string; cursor?: string } & E {
  const cursor = url.searchParams.get("cursor") ?? undefined;
  return { page: String(Math.max(1, Number(url.searchParams.get("page")) || 1)), cursor, ...extra };
}

export const emptyList = (): NoteList => ({ notes: [], paginator: { page: 1, is_end: true }, cursor: null });

/** Spec 2: an id that is not a positive number is "not here" before any call is made. */
export function positiveId(raw: string | undefined): number {
  const id = Number(raw);
  if (!/^\d+$/.test(raw ?? "") || !Number.isSafeInteger(id) || id <= 0)
    throw new Response("Not found", { status: 404 });
  return id;
}

/**
 * Loader of a titled list page (a tag, an x-label): an empty or overlong name is a 404; `read` is
 * the list's read by that name, sent with the viewer's record (one batch).
 */
export async function loadListPage(
  { request, context }: { request: Request; context: AppLoadContext },
  raw: string | undefined,
  title: (x: string) => string,
  read: (name: string, q: { page: number; cursor?: string }, db: DB, viewerId: number | null) => Read<NoteList>,
) {
  const name = (raw ?? "").trim();
  if (!name || name.length > 100) throw new Response("Not found", { status: 404 });
  const url = new URL(request.url);
  const { viewer, reads } = await readPage(request, context, { list: (db, me) => read(name, listParams(url), db, me) });
  return { viewer, title: title(name), list: must(viewer, reads.list) };
}
