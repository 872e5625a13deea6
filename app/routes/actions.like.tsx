import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { answer, contentKind, num } from "~/lib/actions.server";
import { apiFor, result } from "~/lib/api.server";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const like = api.v1.likes[":id"];
  const args = { param: { id: String(num(form, "id")) }, query: contentKind(form) };
  return answer(form, await result(form.get("intent") === "unlike" ? like.$delete(args) : like.$post(args)));
}

export const loader = () => redirect("/");
