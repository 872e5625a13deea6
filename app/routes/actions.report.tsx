import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { answer, num } from "~/lib/actions.server";
import { apiFor } from "~/lib/api.server";
import { returnPath } from "~/lib/url";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const res = await apiFor(request, context).post("/reports", {
    nid: num(form, "id"),
    kind: num(form, "kind"),
    t: String(form.get("t") ?? "note"),
  });
  if (form.get("_js") === "1") return answer(form, res);
  return redirect(returnPath(form.get("redirectTo"), { reported: res.ok ? "1" : "0" }));
}

export const loader = () => redirect("/");
