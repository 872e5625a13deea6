import { type ActionFunctionArgs, data, redirect } from "@remix-run/cloudflare";
import type { ClientResponse } from "hono/client";
import type { ApiResult } from "./api.server";
import { apiFor, cookieHeaders, result } from "./api.server";
import { safeRedirect } from "./url";
import type { ContentKind } from "../../worker/features/content/content";

/**
 * The answer of a resource action: to a fetcher (the form carried _js=1) the data itself; to a plain
 * form post without JavaScript a redirect back to the page it came from.
 */
export function answer<T>(form: FormData, res: ApiResult<T>, fallback = "/") {
  if (form.get("_js") === "1") {
    return data(res.ok ? { ok: true as const, data: res.data } : { ok: false as const, error: res.error }, {
      status: res.ok ? 200 : res.status,
      headers: cookieHeaders(res),
    });
  }
  return redirect(safeRedirect(form.get("redirectTo"), fallback), { headers: cookieHeaders(res) });
}

export const num = (form: FormData, key: string) => Number(form.get(key)) || 0;

/**
 * The kind of content a like, bookmark or report is about (`t`), as the API names them; the API
 * refuses any other word with its own message.
 */
export const contentKind = (form: FormData) => ({ t: String(form.get("t") ?? "note") as ContentKind | "rep" });

type Api = ReturnType<typeof apiFor>;
type ToggleArgs = { param: { id: string }; query: ReturnType<typeof contentKind> };
type Call = Promise<ClientResponse<unknown, number, "json">>;

/**
 * The action of an on/off control on a note, reply or folder (like, save): the form's `intent`
 * `off` deletes, anything else posts, on the endpoint `pick` names for the form's id and kind.
 */
export function toggleAction<P extends Call, D extends Call>(
  off: string,
  pick: (api: Api) => { $post(args: ToggleArgs): P; $delete(args: ToggleArgs): D },
) {
  return async ({ request, context }: ActionFunctionArgs) => {
    const form = await request.formData();
    const endpoint = pick(apiFor(request, context));
    const args = { param: { id: String(num(form, "id")) }, query: contentKind(form) };
    return answer(form, await result(form.get("intent") === off ? endpoint.$delete(args) : endpoint.$post(args)));
  };
}
