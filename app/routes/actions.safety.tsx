import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { answer, num } from "~/lib/actions.server";
import { apiFor, result } from "~/lib/api.server";

const INTENTS = {
  block: ["$post", "blocks"],
  unblock: ["$delete", "blocks"],
  mute: ["$post", "mutes"],
  unmute: ["$delete", "mutes"],
} as const;

/** Block, unblock, mute and unmute from the profile menu, a note's menu or Settings (JS on or off). */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const intent = INTENTS[String(form.get("intent")) as keyof typeof INTENTS];
  if (!intent) throw new Response("Unknown intent", { status: 400 });
  const [method, what] = intent;
  const person = apiFor(request, context).v1[what][":uid"];
  return answer(form, await result(person[method]({ param: { uid: String(num(form, "uid")) } })));
}

export const loader = () => redirect("/");
