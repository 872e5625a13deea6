import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { ThemeForm, themeCookie } from "../../worker/lib/theme";
import { safeRedirect } from "~/lib/url";

// Settings' theme choice: a plain form post (works without JavaScript), answered with the cookie
// and a redirect back, so the next render carries the theme on <html>.
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const parsed = ThemeForm.safeParse({ theme: form.get("theme") });
  // (A resource route's data() keeps status 200 under single fetch: a plain Response carries 422.)
  if (!parsed.success) return Response.json({ error: parsed.error.issues[0]?.message }, { status: 422 });
  const secure = context.cloudflare.env.APP_ENV !== "local";
  return redirect(safeRedirect(form.get("redirectTo"), "/settings"), {
    headers: { "Set-Cookie": themeCookie(parsed.data.theme, secure) },
  });
}

export const loader = () => redirect("/settings");
