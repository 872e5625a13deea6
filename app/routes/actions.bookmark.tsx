import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { answer, num } from "~/lib/actions.server";
import { apiFor } from "~/lib/api.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const path = `/bookmarks/${num(form, "id")}?t=${encodeURIComponent(String(form.get("t") ?? "note"))}`;
  return answer(form, form.get("intent") === "unsave" ? await api.delete(path) : await api.post(path));
}

export const loader = () => redirect("/");
