import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { ThemeForm, themeCookie } from "../../worker/lib/theme";
import { apiFor, result, signedIn } from "~/lib/api.server";
import { safeRedirect } from "~/lib/url";

// Settings' theme choice: a plain form post (works without JavaScript), answered with the cookie
// and a redirect back, so the next render carries the theme on <html>. A signed-in choice is kept
// on the account too, so the next sign-in on another device starts with it.
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const parsed = ThemeForm.safeParse({ theme: form.get("theme") });
  // (A resource route's data() keeps status 200 under single fetch: a plain Response carries 422.)
  if (!parsed.success) return Response.json({ error: parsed.error.issues[0]?.message }, { status: 422 });
  const { theme } = parsed.data;
  if (signedIn(context)) {
    const saved = await result(apiFor(request, context).v1.users.theme.$patch({ json: { theme } }));
    if (!saved.ok) return Response.json({ error: saved.error.message }, { status: saved.status });
  }
  const secure = context.cloudflare.env.APP_ENV !== "local";
  const cookie = themeCookie(theme, secure);
  // Settings' enhanced form saves in the background: the cookie, no page to go to.
  if (form.get("_js") === "1") return Response.json({ theme }, { headers: { "Set-Cookie": cookie } });
  return redirect(safeRedirect(form.get("redirectTo"), "/settings"), {
    headers: { "Set-Cookie": cookie },
  });
}

export const loader = () => redirect("/settings");
