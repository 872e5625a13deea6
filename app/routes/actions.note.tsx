import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { textToHtml } from "../../worker/lib/sanitize";
import type { UserJson } from "../../worker/features/users/users.service";
import { type ComposerResult, ComposerForm } from "~/components/notes/Composer";
import { apiFor } from "~/lib/api.server";
import { errorText } from "~/lib/errors";
import { storeImages } from "~/lib/uploads.server";

const EXT: Record<string, string> = { "image/gif": "gif", "image/png": "png", "image/webp": "webp" };

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const id = Number(form.get("id")) || undefined;

  if (form.get("intent") === "delete") {
    await api.delete(`/notes/${id ?? 0}`);
    // Spec 4: deleting a note goes home (a failure is only logged).
    return redirect("/");
  }

  const text = String(form.get("text") ?? "");
  const values = {
    label: String(form.get("custom_label") ?? "").trim() || String(form.get("label") ?? ""),
    text,
    video: String(form.get("video") ?? ""),
  };
  const files = form.getAll("images").filter((f): f is File => typeof f !== "string" && f.size > 0);
  const body = {
    ...(id ? { id } : {}),
    label: values.label,
    content: textToHtml(text),
    video: values.video,
    imgs: form.getAll("imgs").map(String),
    folders: form.getAll("folders").map(Number).filter(Boolean),
    // Without JavaScript the files arrive here; the action reserves slots and stores them itself.
    uploads: files.map((f) => ({ file_size: f.size, file_ext: EXT[f.type] ?? "jpg" })),
  };
  const res = id
    ? await api.patch<{ note: { id: number }; uploads: { key: string; put_link: string }[] }>("/notes", body)
    : await api.post<{ note: { id: number }; uploads: { key: string; put_link: string }[] }>("/notes", body);
  if (!res.ok) {
    const result: ComposerResult = {
      ok: false,
      message: res.status === 422 ? null : errorText(res.error),
      fields: res.error.fields,
      values,
    };
    return data(result, { status: res.status });
  }
  if (files.length) await storeImages(context, res.data.uploads, files);
  const me = await api.get<UserJson>("/me");
  const href = `/${me.ok ? me.data.username : "notes"}/note/${res.data.note.id}`;
  // A redirect answers both: a fetcher follows it as a client navigation, a plain post as a page load.
  return redirect(href);
}

// A GET shows the full-page composer (and, after a refused no-JS post, it renders with the errors).
export const loader = () => null;

/** Without JavaScript a refused note comes back here, with its values and messages in place. */
export default function NoteFormPage() {
  const result = useActionData<ComposerResult>();
  return (
    <section className="page">
      <h1>Take a note</h1>
      <ComposerForm result={result} />
    </section>
  );
}
