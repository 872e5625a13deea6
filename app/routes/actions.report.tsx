import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { answer, contentKind, num } from "~/lib/actions.server";
import { apiFor, result } from "~/lib/api.server";
import { returnPath } from "~/lib/url";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const json = {
    nid: num(form, "id"),
    kind: num(form, "kind"),
    t: contentKind(form).t,
    forward: form.get("forward") === "on",
    note: String(form.get("note") ?? ""),
    block: form.get("block") === "on",
  };
  const res = await result(apiFor(request, context).v1.reports.$post({ json }));
  if (form.get("_js") === "1") return answer(form, res);
  // The dialog says thanks, and that the author is blocked when they are.
  const reported = res.ok ? (res.data.blocking ? "blocked" : "1") : "0";
  return redirect(returnPath(form.get("redirectTo"), { reported }));
}

export const loader = () => redirect("/");
