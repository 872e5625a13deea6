import { learnAnswer } from "~/lib/counts";
import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { textToHtml } from "../../worker/lib/text";
import { answer, num } from "~/lib/actions.server";
import { flashCookie } from "~/lib/flash.server";
import { apiFor, result } from "~/lib/api.server";
import { TOGGLES } from "~/lib/toggle";
import { returnPath, safeRedirect } from "~/lib/url";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const id = num(form, "id");
  const intent = form.get("intent");
  if (intent === TOGGLES.renote.off)
    return answer(form, await result(api.v1.renotes[":id"].$delete({ param: { id: String(id) } })));
  if (intent === "quote") {
    const text = String(form.get("content") ?? "");
    const res = await result(
      api.v1.renotes.$post({ json: { renote_id: id, content: text.trim() ? textToHtml(text) : "", quote: true } }),
    );
    if (!res.ok) {
      // Spec 8: a failed quote is silent for the person, but the empty-editor message is shown.
      const message = res.error.fields?.content ?? null;
      if (form.get("_js") === "1") return data({ ok: false, message }, { status: res.status });
      const reopen = { dialog: "quote", id: String(id), ...(message ? { error: "empty" } : {}) };
      return redirect(returnPath(form.get("redirectTo"), reopen));
    }
    // Quoted: with JavaScript the dialog learns the quoted note's new renote count (a card on a
    // later page of a list is not reloaded) and closes itself; without, back to the page.
    // Either way the next page says it was posted (the root's flash, read as the page reloads).
    const headers = { "Set-Cookie": flashCookie(context, "quoted") };
    if (form.get("_js") === "1") return data({ ok: true, renum: res.data.renum }, { headers });
    return redirect(safeRedirect(form.get("redirectTo")), { headers });
  }
  return answer(form, await result(api.v1.renotes.$post({ json: { renote_id: id, content: "" } })));
}

export const loader = () => redirect("/");

export const clientAction = learnAnswer;
