import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { type FolderResult, FolderForm } from "~/components/folders/FolderDialog";
import { apiFor, result } from "~/lib/api.server";
import { errorText } from "~/lib/errors";
import { uploadExt } from "~/lib/images";
import { storeImages } from "~/lib/uploads.server";
import { noticeCode } from "~/lib/notices";
import { returnPath, safeRedirect } from "~/lib/url";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const intent = form.get("intent");
  const param = { id: String(Number(form.get("id")) || 0) };
  if (intent === "delete") {
    const res = await result(api.v1.folders[":id"].$delete({ param }));
    if (res.ok) return redirect("/");
    return redirect(returnPath(form.get("redirectTo"), { folder_error: noticeCode(res.error.message) }));
  }
  const [type, name, descr, link, role, start_month, end_month] = [
    "type",
    "name",
    "descr",
    "link",
    "role",
    "start_month",
    "end_month",
  ].map((k) => String(form.get(k) ?? ""));
  const values = { type, name, descr, link, role, start_month, end_month };
  const logo = form.get("logo");
  const file = logo && typeof logo !== "string" && logo.size > 0 ? logo : null;
  const upload = file ? { file_size: file.size, file_ext: uploadExt(file.type) } : undefined;
  const json = { ...values, upload };
  const res = await result(
    intent === "edit" ? api.v1.folders[":id"].$patch({ param, json }) : api.v1.folders.$post({ json }),
  );
  if (!res.ok) {
    const result: FolderResult = {
      ok: false,
      message: res.status === 422 ? null : errorText(res.error, "folder"),
      fields: res.error.fields,
      values,
    };
    return data(result, { status: res.status });
  }
  if (file && res.data.upload) await storeImages(context, [res.data.upload], [file]);
  // Spec 4: after creating or editing, go to the folder page (the API answers where it lives).
  return redirect(safeRedirect(res.data.href));
}

// A GET shows the full-page form; after a refused no-JS post it renders with the errors.
export const loader = () => null;

export default function FolderFormPage() {
  const result = useActionData<FolderResult>();
  return (
    <section className="page narrow">
      <h1>X-folder</h1>
      <FolderForm type={result?.values?.type ?? ""} result={result} />
    </section>
  );
}
