import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { answer, num } from "~/lib/actions.server";
import { apiFor, result } from "~/lib/api.server";

// Spec 8: follow and unfollow errors are only logged; the button flips on success.
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const follow = api.v1.follows[":uid"];
  const args = { param: { uid: String(num(form, "uid")) } };
  const res = await result(form.get("intent") === "unfollow" ? follow.$delete(args) : follow.$post(args));
  if (!res.ok) console.warn("follow failed", res.status);
  return answer(form, res);
}

export const loader = () => redirect("/");
