import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { apiFor, result } from "~/lib/api.server";
import { fieldCodes } from "~/lib/notices";
import { uploadExt } from "~/lib/images";
import { storeImages } from "~/lib/uploads.server";
import { returnPath, safeRedirect } from "~/lib/url";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const file = (k: string) => {
    const f = form.get(k);
    return f && typeof f !== "string" && f.size > 0 ? f : null;
  };
  const avatar = file("avatar");
  const cover = file("cover");
  const upload = (f: File | null) => (f ? { file_size: f.size, file_ext: uploadExt(f.type) } : undefined);
  const res = await result(
    api.v1.users.$patch({
      json: {
        name: String(form.get("name") ?? ""),
        descr: String(form.get("descr") ?? ""),
        avatar: upload(avatar),
        cover: upload(cover),
      },
    }),
  );
  const me = await result(api.v1.me.$get());
  const home = `/${me.ok ? me.data.username : ""}`;
  if (!res.ok)
    return redirect(
      returnPath(home, {
        dialog: "edit-profile",
        profile_error: fieldCodes(res.error.fields ?? { name: res.error.message }),
      }),
    );
  const slots = [res.data.avatar, res.data.cover].filter((s) => !!s);
  await storeImages(
    context,
    slots,
    [avatar, cover].filter((f): f is File => !!f),
  );
  return redirect(safeRedirect(home));
}

export const loader = () => redirect("/");
