import type { AppLoadContext } from "@remix-run/cloudflare";
import { api } from "../../worker/api";
import { putType } from "./images";

/**
 * Stores files posted to a form (the no-JavaScript path) through the very signed PUT links the API
 * reserved for them, in process: the same checks (signature, expiry, size, type, one use) apply.
 */
export async function storeImages(context: AppLoadContext, slots: { key: string; put_link: string }[], files: File[]) {
  const { env, ctx } = context.cloudflare;
  for (const [i, slot] of slots.entries()) {
    const file = files[i];
    if (!file) continue;
    const url = new URL(slot.put_link);
    await api.request(
      `${url.pathname}${url.search}`,
      { method: "PUT", body: await file.arrayBuffer(), headers: { "content-type": putType(file.type) } },
      env,
      ctx,
    );
  }
}
