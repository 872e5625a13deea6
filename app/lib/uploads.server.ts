import type { AppLoadContext } from "@remix-run/cloudflare";

/**
 * Stores files posted to a form (the no-JavaScript path) under the upload slots the API reserved
 * for them, writing to the same R2 binding the signed PUT route writes to.
 */
export async function storeImages(context: AppLoadContext, slots: { key: string }[], files: File[]) {
  const { env } = context.cloudflare;
  await Promise.all(
    slots.map((slot, i) =>
      files[i]
        ? env.IMAGES.put(slot.key, files[i].stream(), { httpMetadata: { contentType: files[i].type || "image/jpeg" } })
        : null,
    ),
  );
}
