import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { answer, num } from "~/lib/actions.server";
import { apiFor, cookieHeaders, result } from "~/lib/api.server";
import { flashCookie } from "~/lib/flash.server";
import { safeRedirect } from "~/lib/url";

const INTENTS = {
  block: ["$post", "blocks", "blocked"],
  unblock: ["$delete", "blocks", "unblocked"],
  mute: ["$post", "mutes", "muted"],
  unmute: ["$delete", "mutes", "unmuted"],
} as const;

/** Block, unblock, mute and unmute from the profile menu, a note's menu or Settings (JS on or off). */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = INTENTS[String(form.get("intent")) as keyof typeof INTENTS];
  if (!intent) throw new Response("Unknown intent", { status: 400 });
  const [method, what, done] = intent;
  const person = apiFor(request, context).v1[what][":uid"];
  const res = await result(person[method]({ param: { uid: String(num(form, "uid")) } }));
  // A plain form post (the block confirmation, or any item without JavaScript) comes back to its
  // page with a notice that says it is done.
  if (form.get("_js") !== "1" && res.ok) {
    const headers = cookieHeaders(res);
    headers.append("Set-Cookie", flashCookie(context, done));
    return redirect(safeRedirect(form.get("redirectTo"), "/"), { headers });
  }
  return answer(form, res);
}

export const loader = () => redirect("/");
