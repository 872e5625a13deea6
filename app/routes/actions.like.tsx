import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { answer, num } from "~/lib/actions.server";
import { apiFor } from "~/lib/api.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const t = String(form.get("t") ?? "note");
  const path = `/likes/${num(form, "id")}?t=${encodeURIComponent(t)}`;
  const res = form.get("intent") === "unlike" ? await api.delete(path) : await api.post(path);
  return answer(form, res);
}

export const loader = () => redirect("/");
