import type { NoteList } from "../../worker/features/notes/notes.types";
import type { PageApi } from "./api.server";
import { orThrow } from "./api.server";

/** page and cursor of a list URL, passed through to the API as they are. */
export function listParams(url: URL, extra: Record<string, string | undefined> = {}): string {
  const p = new URLSearchParams();
  p.set("page", String(Math.max(1, Number(url.searchParams.get("page")) || 1)));
  const cursor = url.searchParams.get("cursor");
  if (cursor) p.set("cursor", cursor);
  for (const [k, v] of Object.entries(extra)) if (v) p.set(k, v);
  return p.toString();
}

export const emptyList = (): NoteList => ({ notes: [], paginator: { page: 1, is_end: true }, cursor: null });

export async function loadList(
  api: PageApi,
  path: string,
  url: URL,
  extra?: Record<string, string | undefined>,
): Promise<NoteList> {
  return orThrow(await api.get<NoteList>(`${path}?${listParams(url, extra)}`));
}

/** Spec 2: an id that is not a positive number is "not here" before any call is made. */
export function positiveId(raw: string | undefined): number {
  const id = Number(raw);
  if (!/^\d+$/.test(raw ?? "") || !Number.isSafeInteger(id) || id <= 0)
    throw new Response("Not found", { status: 404 });
  return id;
}

/** Loader of a titled list page: `/tags/{x}` or `/labels/{x}`; an empty or overlong name is a 404. */
export async function loadListPage(
  api: PageApi,
  apiPath: string,
  raw: string | undefined,
  url: URL,
  title: (x: string) => string,
) {
  const name = (raw ?? "").trim();
  if (!name || name.length > 100) throw new Response("Not found", { status: 404 });
  return { title: title(name), list: await loadList(api, `${apiPath}/${encodeURIComponent(name)}`, url) };
}
