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
  };
  const res = await result(apiFor(request, context).v1.reports.$post({ json }));
  if (form.get("_js") === "1") return answer(form, res);
  return redirect(returnPath(form.get("redirectTo"), { reported: res.ok ? "1" : "0" }));
}

export const loader = () => redirect("/");
