import { data, redirect } from "@remix-run/cloudflare";
import type { ApiResult } from "./api.server";
import { cookieHeaders } from "./api.server";
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
