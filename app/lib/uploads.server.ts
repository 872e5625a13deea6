import type { AppLoadContext } from "@remix-run/cloudflare";
import { api } from "../../worker/api";
import { sniffImage } from "../../worker/features/uploads/image-bytes";
import { putType, uploadExt } from "./images";

/**
 * The upload slots to reserve for files posted to a form, each with the picture's natural size
 * read from its header, so the note reserves the picture's box on every page from the start.
 */
export async function uploadsFor(files: File[]) {
  return await Promise.all(
    files.map(async (f) => {
      const sniffed = sniffImage(new Uint8Array(await f.arrayBuffer()));
      const size = sniffed.ok ? { width: sniffed.image.width, height: sniffed.image.height } : {};
      return { file_size: f.size, file_ext: uploadExt(f.type), ...size };
    }),
  );
}

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
