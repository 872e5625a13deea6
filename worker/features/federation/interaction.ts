// GET /authorize_interaction?uri=…: where "interact from your server" buttons on other servers send
// people (WebFinger's http://ostatus.org/schema/1.0/subscribe template). The uri names an account
// (acct:name@host, name@host, an actor or profile URL) or a page of this site; it opens that
// account's profile here (remote people are looked up and stored first), where Follow is.
import type { Context } from "hono";
import { profilePath, safeRedirect } from "../../../app/lib/url";
import type { AppEnv } from "../../env";
import { siteOriginOf } from "./context";
import { findRemote } from "./federate";

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
  const id = await findRemote(c, uri.replace(/^acct:/i, ""));
  const row =
    id === null
      ? null
      : await c.env.DB.prepare("select username from users where id = ?").bind(id).first<{ username: string }>();
  if (!row) return c.json({ code: "not_found", message: "Nothing was found at that address" }, 404);
  return c.redirect(safeRedirect(profilePath(row.username)), 302);
}
