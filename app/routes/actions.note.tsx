import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { useActionData } from "@remix-run/react";
import { textToHtml } from "../../worker/lib/text";
import { type ComposerResult, ComposerForm } from "~/components/notes/Composer";
import { apiFor, result } from "~/lib/api.server";
import { errorText } from "~/lib/errors";
import { storeImages, uploadsFor } from "~/lib/uploads.server";
import { flashCookie } from "~/lib/flash.server";
import { safeRedirect } from "~/lib/url";

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const api = apiFor(request, context);
  const id = Number(form.get("id")) || undefined;

  if (form.get("intent") === "delete") {
    const res = await result(api.v1.notes[":id"].$delete({ param: { id: String(id ?? 0) } }));
    // Spec 4: deleting a note goes home (a failure is only logged).
    if (!res.ok) console.warn("note delete failed", res.status);
    // Home says it is done (a toast from the root's one-read notice).
    return redirect("/", res.ok ? { headers: { "Set-Cookie": flashCookie(context, "note_deleted") } } : undefined);
  }

  const text = String(form.get("text") ?? "");
  // The rich editor sends its HTML (sanitised by the API); the plain textarea sends text only.
  const html = String(form.get("content_html") ?? "");
  const values = {
    label: String(form.get("custom_label") ?? "").trim() || String(form.get("label") ?? ""),
    text,
    content_html: html,
    video: String(form.get("video") ?? ""),
  };
  // Without JavaScript the files arrive here. With it the browser has already scaled and uploaded
  // them (POST /v1/uploads, then PUT) and sends their URLs in imgs, like kept images.
  const files = form.getAll("images").filter((f): f is File => typeof f !== "string" && f.size > 0);
  const body = {
    ...(id ? { id } : {}),
    label: values.label,
    content: html || textToHtml(text),
    video: values.video,
    imgs: form.getAll("imgs").map(String),
    // Alt texts in the images' order: the kept ones by URL, then one per new image.
    alts: [
      ...form.getAll("imgs").map((src) => String(form.get(`alt:${src}`) ?? "")),
      ...form.getAll("alt_new").flatMap((v) => String(v).split(/\r?\n/)),
    ],
    folders: form.getAll("folders").map(Number).filter(Boolean),
    // The action reserves slots for posted files (with each picture's size, read from its header)
    // and stores them itself.
    uploads: await uploadsFor(files),
  };
  const res = await result(id ? api.v1.notes.$patch({ json: body }) : api.v1.notes.$post({ json: body }));
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
  // The API answers where the note lives: no second call that could fail and misdirect.
  const { href } = res.data.note;
  // A redirect answers both: a fetcher follows it as a client navigation, a plain post as a page load.
  return redirect(safeRedirect(href));
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
