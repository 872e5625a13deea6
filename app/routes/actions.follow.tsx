import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { answer, num } from "~/lib/actions.server";
import { apiFor } from "~/lib/api.server";

// Spec 8: follow and unfollow errors are only logged; the button flips on success.
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const path = `/follows/${num(form, "uid")}`;
  const res = form.get("intent") === "unfollow" ? await api.delete(path) : await api.post(path);
  if (!res.ok) console.warn("follow failed", res.status);
  return answer(form, res);
}

export const loader = () => redirect("/");
