import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { textToHtml } from "../../worker/lib/text";
import { apiFor } from "~/lib/api.server";
import { safeRedirect } from "~/lib/url";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const js = form.get("_js") === "1";
  if (form.get("intent") === "delete") {
    await api.delete(`/replies/${Number(form.get("id")) || 0}`);
    // Deleting a reply goes home (spec 4).
    return redirect("/");
  }
  if (form.get("intent") === "edit") {
    const back = new URL(safeRedirect(form.get("redirectTo")), "http://x");
    const edited = await api.patch("/replies", {
      id: Number(form.get("id")) || 0,
      content: textToHtml(String(form.get("content") ?? "")),
    });
    if (!edited.ok) {
      // The dialog opens again, with the spec's message.
      back.searchParams.set("dialog", "edit-reply");
      back.searchParams.set("rid", String(Number(form.get("id")) || 0));
      back.searchParams.set("edit_error", edited.error.fields?.content ?? edited.error.message);
    }
    return redirect(`${back.pathname}${back.search}`);
  }
  const res = await api.post("/replies", {
    parent: Number(form.get("parent")) || 0,
    content: textToHtml(String(form.get("content") ?? "")),
  });
  const back = new URL(safeRedirect(form.get("redirectTo")), "http://x");
  if (!res.ok) {
    const message = res.error.fields?.content ?? res.error.message;
    if (js) return data({ ok: false, message }, { status: res.status });
    back.searchParams.set("reply_error", message);
    return redirect(`${back.pathname}${back.search}`);
  }
  // Spec 4: a published reply says so; the page reloads its replies either way.
  back.searchParams.set("published", String(Date.now()));
  return redirect(`${back.pathname}${back.search}#replies`);
}

export const loader = () => redirect("/");
