import { redirect } from "@remix-run/cloudflare";
import { MOVED_CACHE, type UserJson } from "../../worker/features/users/users.service";
import { type Outcome, readOne } from "../../worker/db/reads";
import type { DB } from "../../worker/env";
import { formerOwnerRead } from "../../worker/features/users/users.read";
import { must } from "./page.server";
import type { PageViewer } from "./viewer";
import { profilePath, safeRedirect } from "./url";

/**
 * Pages under /{username}/… keep working after a rename (issue 21 item 16): the API finds an
 * account by a former name nobody else holds and answers it under the name it has now, and the
 * page answers a 301 to the same path (and query) under that name.
 */
export function toCurrentName(request: Request, asked: string, user: Pick<UserJson, "username">) {
  const url = new URL(request.url);
  const rest = url.pathname.split("/").slice(2);
  // A profile of someone on another server lives at /@name@host (as on Mastodon); `name@host` is
  // their username, and what the pages under it use.
  const name = rest.length ? user.username : profilePath(user.username).slice(1);
  if (name.toLowerCase() === asked.toLowerCase()) return;
  throw redirect(safeRedirect(`/${[name, ...rest].join("/")}${url.search}`), {
    status: 301,
    headers: { "Cache-Control": MOVED_CACHE },
  });
}

/**
 * A page's own read answered `outcome`; on a 404, the name in the address may be a former one.
 * The extra lookup (a second round trip) costs only pages that are not found.
 */
export async function orMoved<T>(
  outcome: Outcome<T>,
  page: { viewer: PageViewer; db: DB },
  request: Request,
  asked: string,
): Promise<T> {
  if (!outcome.ok && outcome.error.status === 404 && asked) {
    const owner = await readOne(page.db, formerOwnerRead(page.db, asked));
    if (owner) toCurrentName(request, asked, owner);
  }
  return must(page.viewer, outcome);
}
