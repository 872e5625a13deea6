import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSubmit } from "@remix-run/react";
import { type FormEvent, useState } from "react";
import { apiFor, resultOf } from "~/lib/api.server";
import { viewerIdOf, withViewer } from "~/lib/page.server";
import type { ArchivePreview } from "../../worker/features/imports/archive/archive.routes";
import { bodyMax } from "../../worker/features/imports/archive/archive.upload";

export const meta: MetaFunction = () => [{ title: "Import a Mastodon archive · Settings · NoteX" }];

type Answer = { step: "preview"; preview: ArchivePreview } | { step: "error"; message: string };

export async function loader(args: LoaderFunctionArgs) {
  if (!viewerIdOf(args.context)) throw redirect("/login");
  return withViewer(args, () => ({ limit: bodyMax(args.context.cloudflare.env) }));
}

/**
 * Settings → Import → Mastodon archive: the zip goes to the API, which checks it whole and answers
 * a preview; starting the import hands it to an import job, whose page shows its progress.
 */
export async function action({ request, context }: ActionFunctionArgs): Promise<Answer> {
  const api = apiFor(request, context);
  const form = await request.formData();
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");
  if (intent === "drop") {
    await api.raw(`/v1/imports/archive/${encodeURIComponent(id)}`, { method: "DELETE" });
    throw redirect("/settings/import/archive");
  }
  if (intent === "start") {
    const res = await resultOf<{ job: { id: number } }>(
      await api.raw(`/v1/imports/archive/${encodeURIComponent(id)}/start`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ profile: form.get("profile") === "replace" ? "replace" : "keep" }),
      }),
    );
    if (res.status === 401) throw redirect("/login");
    if (!res.ok) return { step: "error", message: res.error.message };
    throw redirect(`/settings/import/jobs/${res.data.job.id}`);
  }
  if (intent === "received") {
    const res = await resultOf<ArchivePreview>(
      await api.raw(`/v1/imports/archive/${encodeURIComponent(id)}/received`, { method: "POST" }),
    );
    if (res.status === 401) throw redirect("/login");
    if (!res.ok) return { step: "error", message: res.error.message };
    return { step: "preview", preview: res.data };
  }
  const upload = new FormData();
  const file = form.get("file");
  if (file && typeof file !== "string") upload.set("file", file);
  const res = await resultOf<ArchivePreview>(await api.raw("/v1/imports/archive", { method: "POST", body: upload }));
  if (res.status === 401) throw redirect("/login");
  if (!res.ok) return { step: "error", message: res.error.message };
  return { step: "preview", preview: res.data };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

function Preview({ preview }: { preview: ArchivePreview }) {
  const { counts, profile, left, left_total } = preview;
  const total = counts.posts + counts.replies;
  const busy = useNavigation().state === "submitting";
  return (
    <div className="import-preview archive-preview">
      <h2>What your archive holds</h2>
      <dl className="archive-counts">
        <div>
          <dt>Posts</dt>
          <dd>{counts.posts.toLocaleString("en")}</dd>
        </div>
        <div>
          <dt>Replies in your threads</dt>
          <dd>{counts.replies.toLocaleString("en")}</dd>
        </div>
        <div>
          <dt>Images</dt>
          <dd>{counts.media.toLocaleString("en")}</dd>
        </div>
        <div>
          <dt>Not imported</dt>
          <dd>{counts.skipped.toLocaleString("en")}</dd>
        </div>
      </dl>
      <p className="muted">
        Each post keeps its date and a link to where it was first published. Nobody is notified and nothing appears in
        anyone's feed: they wait on your profile.
      </p>
      <Form method="post" className="import-upload">
        <input type="hidden" name="id" value={preview.id} />
        {(profile.name || profile.bio || profile.avatar || profile.header) && (
          <fieldset className="import-group archive-profile">
            <legend>Your profile there</legend>
            <p>
              <strong>{profile.name || "(no name)"}</strong>
            </p>
            {profile.bio && <p className="archive-bio">{profile.bio}</p>}
            <p className="muted">
              {[profile.avatar && "an avatar", profile.header && "a header image"].filter(Boolean).join(" and ") ||
                "No pictures"}
            </p>
            <label className="import-row">
              <input type="checkbox" name="profile" value="replace" />
              <span>Replace my name, bio{profile.avatar || profile.header ? " and pictures" : ""} with these</span>
            </label>
          </fieldset>
        )}
        {left_total > 0 && (
          <details className="import-problems">
            <summary>What stays behind, and why ({left_total.toLocaleString("en")})</summary>
            <ul>
              {left.map((l, i) => (
                <li key={`${l.url}:${i}`}>
                  <a href={l.url} rel="noopener noreferrer nofollow">
                    {l.url.replace(/^https?:\/\//, "")}
                  </a>
                  : {l.reason}
                </li>
              ))}
              {left_total > left.length && <li>… and {(left_total - left.length).toLocaleString("en")} more</li>}
            </ul>
          </details>
        )}
        <div className="import-actions">
          <button type="submit" name="intent" value="drop" className="btn" formNoValidate>
            Start over
          </button>
          <button type="submit" name="intent" value="start" className="btn primary" disabled={busy || total === 0}>
            Import {plural(total, "post")}
          </button>
        </div>
      </Form>
    </div>
  );
}

/**
 * With JavaScript, a zip bigger than a request may carry goes by the signed PUT link the API gives
 * (straight to storage), and the page then asks for its preview by id; a smaller one, and any
 * without JavaScript, goes through the form.
 */
function useBigUpload(limit: number) {
  const submit = useSubmit();
  const [sending, setSending] = useState<string | null>(null);
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    const file = (event.currentTarget.elements.namedItem("file") as HTMLInputElement | null)?.files?.[0];
    if (!file || file.size <= limit) return;
    event.preventDefault();
    setSending("Sending…");
    try {
      const slot = await fetch("/v1/imports/archive/uploads", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ size: file.size }),
      });
      const answer = (await slot.json()) as { id?: string; put_link?: string; message?: string };
      if (!slot.ok || !answer.id || !answer.put_link) throw new Error(answer.message ?? "The upload could not start.");
      const put = await fetch(answer.put_link, {
        method: "PUT",
        headers: { "content-type": "application/zip" },
        body: file,
      });
      if (!put.ok) throw new Error("The archive could not be sent. Please try again.");
      submit({ intent: "received", id: answer.id }, { method: "post" });
      setSending(null);
    } catch (error) {
      setSending(error instanceof Error ? error.message : String(error));
    }
  };
  return { onSubmit, sending };
}

export default function ArchiveImportPage() {
  const answer = useActionData<typeof action>();
  const { limit } = useLoaderData<typeof loader>();
  const big = useBigUpload(limit);
  const busy = useNavigation().state === "submitting" || big.sending === "Sending…";
  return (
    <section className="page import-page">
      <p>
        <Link to="/settings">← Settings</Link>
      </p>
      <h1>Bring your posts from Mastodon</h1>
      {answer?.step === "error" && (
        <p className="notice flag" role="alert">
          {answer.message}
        </p>
      )}
      {answer?.step === "preview" ? (
        <Preview preview={answer.preview} />
      ) : (
        <Form method="post" encType="multipart/form-data" className="import-upload" onSubmit={big.onSubmit}>
          <p className="muted">
            On Mastodon, open Preferences → Import and export → Request your archive, and download the zip it prepares.
            Your public and unlisted posts become notes here with their dates, images and descriptions, and your own
            threads stay threads. Boosts, followers-only posts and direct messages stay behind. You see what the archive
            holds before anything is saved.
          </p>
          <label className="file-pick">
            <span>Mastodon archive (.zip, up to 100 MB)</span>
            <input type="file" name="file" accept=".zip,application/zip" required />
          </label>
          <p className="muted">Bigger archives, up to 1 GB, are sent straight to storage while JavaScript is on.</p>
          {big.sending && big.sending !== "Sending…" && (
            <p className="notice flag" role="alert">
              {big.sending}
            </p>
          )}
          <div className="import-actions">
            <button type="submit" className="btn primary" disabled={busy}>
              {big.sending === "Sending…" ? "Sending…" : busy ? "Checking…" : "Preview"}
            </button>
          </div>
        </Form>
      )}
    </section>
  );
}
