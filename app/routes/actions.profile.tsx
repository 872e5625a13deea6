import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { apiFor, result } from "~/lib/api.server";
import { fieldCodes } from "~/lib/notices";
import { uploadExt } from "~/lib/images";
import { storeImages } from "~/lib/uploads.server";
import { returnPath, safeRedirect } from "~/lib/url";
import { MAX_LINKS } from "../../worker/features/users/profile.limits";

/** The link rows a person filled (an empty row is no link). */
function linksOf(form: FormData) {
  const text = (k: string) => String(form.get(k) ?? "").trim();
  return Array.from({ length: MAX_LINKS }, (_, i) => ({
    name: text(`link_name_${i}`),
    url: text(`link_url_${i}`),
  })).filter((l) => l.url || l.name);
}

// The profile form (Settings' Profile page or the profile's Edit Profile dialog): back where it
// was sent from, with the fields' errors, or to the profile once saved.
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
        // A form without these fields (an older page) leaves them as they were.
        ...(form.has("headline") ? { headline: String(form.get("headline")) } : {}),
        ...(form.has("location") ? { location: String(form.get("location")) } : {}),
        ...(form.has("link_url_0") ? { links: linksOf(form) } : {}),
        avatar: upload(avatar),
        cover: upload(cover),
      },
    }),
  );
  const me = await result(api.v1.me.$get());
  const home = `/${me.ok ? me.data.username : ""}`;
  const settings = form.get("back") === "settings";
  if (!res.ok) {
    const profile_error = fieldCodes(res.error.fields ?? { name: res.error.message });
    if (settings) return redirect(returnPath("/settings/profile", { profile_error }));
    return redirect(returnPath(home, { dialog: "edit-profile", profile_error }));
  }
  const slots = [res.data.avatar, res.data.cover].filter((s) => !!s);
  await storeImages(
    context,
    slots,
    [avatar, cover].filter((f): f is File => !!f),
  );
  if (settings) return redirect("/settings/profile?saved=profile");
  return redirect(safeRedirect(home));
}

export const loader = () => redirect("/");
