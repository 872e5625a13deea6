// Profile links verified as Mastodon verifies them (VerifyLinkService): the linked page is fetched
// through the outbound gate, and a link is verified when that page has an `<a>` or `<link>` with
// rel="me" whose href is this person's profile (or actor) address. Runs after the answer (the
// request's waitUntil); a page that cannot be fetched or read simply stays unverified.
import { eq, sql } from "drizzle-orm";
import { users } from "../../db/schema/users";
import { guardedFetch, outboundFor } from "../../lib/outbound";
import type { ActionContext } from "../federation/federate";
import { storedLinks } from "./profile.schema";

/** Enough of a page to find its head's and body's rel=me links; the rest is not read. */
const MAX_BYTES = 1024 * 1024;
const TIMEOUT_MS = 5_000;

/** The addresses a page may link back to: the profile (either spelling) and the actor. */
function profileAddresses(origin: string, user: { id: number; username: string }): Set<string> {
  const at = (path: string) => new URL(path, origin).href.replace(/\/$/, "");
  return new Set([at(`/${user.username}`), at(`/@${user.username}`), at(`/ap/users/${user.id}`)]);
}

/** The hrefs of the page's rel=me links, resolved against the page's own address. */
async function relMeLinks(res: Response, base: string): Promise<string[]> {
  const found: string[] = [];
  const take = {
    element(el: Element) {
      const rel = (el.getAttribute("rel") ?? "").toLowerCase().split(/\s+/);
      const href = el.getAttribute("href");
      if (rel.includes("me") && href && URL.canParse(href, base)) found.push(new URL(href, base).href);
    },
  };
  // Only the first MAX_BYTES are passed on to the parser.
  let seen = 0;
  const capped = res.body?.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        if (seen >= MAX_BYTES) return;
        seen += chunk.byteLength;
        out.enqueue(chunk);
      },
    }),
  );
  await new HTMLRewriter()
    .on("a[rel]", take)
    .on("link[rel]", take)
    .transform(new Response(capped ?? null))
    .arrayBuffer();
  return found;
}

/** Whether the page at `url` links back to one of `addresses` with rel=me. */
async function linksBack(ctx: ActionContext, url: string, addresses: Set<string>): Promise<boolean> {
  const res = await guardedFetch(
    new Request(url, {
      headers: { accept: "text/html", "user-agent": `NoteX link verification (+${ctx.origin})` },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }),
    outboundFor(ctx.env),
  );
  if (!res.ok || !(res.headers.get("content-type") ?? "").includes("html")) {
    await res.body?.cancel();
    return false;
  }
  const hrefs = await relMeLinks(res, url);
  return hrefs.some((h) => addresses.has(h.replace(/\/$/, "")));
}

/**
 * Checks each of the person's unverified links and marks the ones whose page links back. The
 * mark is written only onto a link that still has that address (an edit in between wins).
 */
export async function verifyLinks(ctx: ActionContext, user: { id: number; username: string; links: string }) {
  const addresses = profileAddresses(ctx.origin, user);
  const pending = storedLinks(user.links).filter((l) => !l.verified_at);
  const verified: string[] = [];
  for (const link of pending) {
    const ok = await linksBack(ctx, link.value, addresses).catch((e) => {
      console.warn("link verification failed", link.value, (e as Error)?.message);
      return false;
    });
    if (ok) verified.push(link.value);
  }
  if (!verified.length) return;
  const now = new Date().toISOString();
  await ctx.db
    .update(users)
    .set({
      links: sql`(select json_group_array(case when j.value ->> 'value' in (select value from json_each(${JSON.stringify(verified)}))
        and j.value ->> 'verified_at' is null then json_set(j.value, '$.verified_at', ${now}) else json(j.value) end)
        from json_each(${users.links}) j)`,
    })
    .where(eq(users.id, user.id));
}
