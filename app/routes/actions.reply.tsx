import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { textToHtml } from "../../worker/lib/text";
import { apiFor, result } from "~/lib/api.server";
import { flashCookie } from "~/lib/flash.server";
import { noticeCode } from "~/lib/notices";
import { returnPath, safeRedirect } from "~/lib/url";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const js = form.get("_js") === "1";
  if (form.get("intent") === "delete") {
    const gone = await result(api.v1.replies[":id"].$delete({ param: { id: String(Number(form.get("id")) || 0) } }));
    // Spec 4 sent you home; people expect to stay on the thread (issue 21 item 11): the dialog
    // names the page to return to.
    return redirect(
      safeRedirect(form.get("redirectTo")),
      gone.ok ? { headers: { "Set-Cookie": flashCookie(context, "reply_deleted") } } : undefined,
    );
  }
  if (form.get("intent") === "edit") {
    const edited = await result(
      api.v1.replies.$patch({
        json: { id: Number(form.get("id")) || 0, content: textToHtml(String(form.get("content") ?? "")) },
      }),
    );
    // Refused: the dialog opens again, with the spec's message.
    const reopen = {
      dialog: "edit-reply",
      rid: String(Number(form.get("id")) || 0),
      edit_error: noticeCode(edited.ok ? "" : (edited.error.fields?.content ?? edited.error.message)),
    };
    return redirect(returnPath(form.get("redirectTo"), edited.ok ? {} : reopen));
  }
  const res = await result(
    api.v1.replies.$post({
      json: { parent: Number(form.get("parent")) || 0, content: textToHtml(String(form.get("content") ?? "")) },
    }),
  );
  if (!res.ok) {
    const message = res.error.fields?.content ?? res.error.message;
    if (js) return data({ ok: false, message }, { status: res.status });
    return redirect(returnPath(form.get("redirectTo"), { reply_error: noticeCode(message) }));
  }
  // Spec 4: a published reply says so. With JavaScript the form clears itself and shows it (the
  // fetcher reloads the replies); without, the page it returns to shows it once (a flash cookie,
  // not the address).
  if (js) return data({ ok: true, id: res.data.id });
  // Back on the page, anchored at the new reply; from a thread's reply box the page reads it in
  // focus (`reply`), so it shows under its parent wherever it falls in the thread.
  const focus: Record<string, string> = form.get("thread") === "1" ? { reply: String(res.data.id) } : {};
  return redirect(`${returnPath(form.get("redirectTo"), focus)}#rep-${res.data.id}`, {
    headers: { "Set-Cookie": flashCookie(context, "published") },
  });
}

export const loader = () => redirect("/");
