// GET /authorize_interaction?uri=…: where "interact from your server" buttons on other servers send
// people (WebFinger's http://ostatus.org/schema/1.0/subscribe template). The uri names an account
// (acct:name@host, name@host, an actor or profile URL), a post (its id or page on its server) or a
// page of this site; it opens that post's page or that account's profile here (remote ones looked
// up and stored first), where reply, renote and Follow are.
import type { Context } from "hono";
import { profilePath, safeRedirect } from "../../../app/lib/url";
import type { AppEnv } from "../../env";
import { siteOriginOf } from "./context";
import { findRemote, findRemotePost } from "./find";
import type { PostRef } from "./lookup";

/** A note's or reply's page here (its author's path), or null when it is not there. */
async function postPage(c: Context<AppEnv>, post: PostRef): Promise<string | null> {
  const table = post.kind === "note" ? "notes" : "replies";
  const row = await c.env.DB.prepare(
    `select u.username from ${table} p join users u on u.id = p.user_id where p.id = ?`,
  )
    .bind(post.id)
    .first<{ username: string }>();
  return row ? `${profilePath(row.username)}/${post.kind === "note" ? "note" : "rep"}/${post.id}` : null;
}

const HANDLE = /^(?:acct:)?@?([^@:/\s]+)@([^@/\s]+)$/i;

export async function authorizeInteraction(c: Context<AppEnv>): Promise<Response> {
  const uri = (c.req.query("uri") ?? "").trim();
  const origin = new URL(siteOriginOf(c.env, c.req.url));
  const handle = HANDLE.exec(uri);
  if (handle && handle[2].toLowerCase() === origin.host) return c.redirect(safeRedirect(profilePath(handle[1])), 302);
  const url = !handle && URL.canParse(uri) ? new URL(uri) : null;
  // A page of this site: its path, through the guard (a path such as //host is another site's).
  if (url && url.origin === origin.origin) return c.redirect(safeRedirect(url.pathname), 302);
  if (!handle && !(url && /^https?:$/.test(url.protocol)))
    return c.json({ code: "invalid_input", message: "uri must name an account or a post" }, 400);
  // A post (a note or reply there): stored here and opened on its page, where reply and renote are.
  const post = url ? await findRemotePost(c, url.href) : null;
  const page = post ? await postPage(c, post) : null;
  if (page) return c.redirect(safeRedirect(page), 302);
  const id = await findRemote(c, uri.replace(/^acct:/i, ""));
  const row =
    id === null
      ? null
      : await c.env.DB.prepare("select username from users where id = ?").bind(id).first<{ username: string }>();
  if (!row) return c.json({ code: "not_found", message: "Nothing was found at that address" }, 404);
  return c.redirect(safeRedirect(profilePath(row.username)), 302);
}
