import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { MastodonImport, RecentImports } from "~/components/imports/MastodonImport";
import { UploadForm } from "~/components/imports/UploadForm";
import { apiFor, resultOf } from "~/lib/api.server";
import { must, readPage } from "~/lib/page.server";
import { known } from "../../worker/db/reads";
import { jobsRead } from "../../worker/features/imports/jobs";
import type { JobView } from "../../worker/features/imports/jobs.view";
import { useViewer } from "~/lib/viewer";
import type { ImportItem, ImportProblem } from "../../worker/features/imports/linkedin";
import type { ImportOutcome } from "../../worker/features/imports/imports.service";
import { typeLabel } from "../../worker/features/folders/folders.constants";
import { span } from "../../worker/features/resume/cv.model";

export const meta: MetaFunction = () => [{ title: "Import · Settings · NoteX" }];

type Previewed = ImportItem & { exists: boolean };
type Answer =
  | { step: "preview"; items: Previewed[]; problems: ImportProblem[] }
  | { step: "done"; outcome: ImportOutcome; username: string }
  | { step: "error"; message: string }
  | { step: "mastodon-error"; message: string };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, reads } = await readPage(request, context, {
    jobs: (db, me) => (me ? jobsRead(db, me) : known([])),
  });
  if (!viewer.user) throw redirect("/login");
  return { viewer, jobs: must(viewer, reads.jobs) as JobView[] };
}

/** Settings → Import: a Mastodon CSV starts a job; a LinkedIn zip is previewed, then its chosen rows imported. */
export async function action({ request, context }: ActionFunctionArgs): Promise<Answer> {
  const api = apiFor(request, context);
  const form = await request.formData();
  if (form.get("intent") === "mastodon") {
    // A Mastodon CSV becomes a job: its page shows the progress.
    const res = await resultOf<JobView>(await api.raw("/v1/imports/mastodon", { method: "POST", body: form }));
    if (res.status === 401) throw redirect("/login");
    if (!res.ok) return { step: "mastodon-error", message: res.error.message };
    throw redirect(`/settings/import/jobs/${res.data.id}`);
  }
  if (form.get("intent") === "import") {
    const items = form.getAll("item").flatMap((v) => {
      try {
        return [JSON.parse(String(v))];
      } catch {
        return [];
      }
    });
    const res = await resultOf<ImportOutcome>(
      await api.raw("/v1/imports/linkedin", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ items }),
      }),
    );
    if (res.status === 401) throw redirect("/login");
    if (!res.ok) return { step: "error", message: res.error.message };
    return { step: "done", outcome: res.data, username: String(form.get("username") ?? "") };
  }
  const upload = new FormData();
  const file = form.get("file");
  if (file && typeof file !== "string") upload.set("file", file);
  const res = await resultOf<{ items: Previewed[]; problems: ImportProblem[] }>(
    await api.raw("/v1/imports/linkedin/preview", { method: "POST", body: upload }),
  );
  if (res.status === 401) throw redirect("/login");
  if (!res.ok) return { step: "error", message: res.error.message };
  return { step: "preview", ...res.data };
}

function Preview({ items, problems, username }: { items: Previewed[]; problems: ImportProblem[]; username: string }) {
  const types = [...new Set(items.map((i) => i.type))];
  const fresh = items.filter((i) => !i.exists).length;
  return (
    <Form method="post" className="import-preview">
      <input type="hidden" name="intent" value="import" />
      <input type="hidden" name="username" value={username} />
      <h2>Choose what to import</h2>
      <p className="muted">
        {items.length} found, {fresh} new. Untick what you would rather leave behind; what you already have stays as it
        is.
      </p>
      {types.map((t) => (
        <fieldset key={t} className="import-group">
          <legend>{typeLabel(t)}</legend>
          {items
            .filter((i) => i.type === t)
            .map((i) => (
              <label key={i.key} className={`import-row${i.exists ? " exists" : ""}`}>
                <input
                  type="checkbox"
                  name="item"
                  value={JSON.stringify(i)}
                  defaultChecked={!i.exists}
                  disabled={i.exists}
                />
                <span className="import-what">
                  <strong>{i.name}</strong>
                  {i.role && <span className="muted"> · {i.role}</span>}
                  {i.start_month && <span className="import-dates">{span(i.start_month, i.end_month)}</span>}
                  {i.exists && <span className="pill">Already in your x-folders</span>}
                </span>
              </label>
            ))}
        </fieldset>
      ))}
      {problems.length > 0 && (
        <details className="import-problems" open>
          <summary>Left out ({problems.length})</summary>
          <ul>
            {problems.map((p) => (
              <li key={`${p.file}:${p.row}:${p.reason}`}>
                {p.file}
                {p.row ? `, row ${p.row}` : ""}: {p.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
      <div className="import-actions">
        <Link to="/settings/import" className="btn">
          Start over
        </Link>
        <button type="submit" className="btn primary" disabled={fresh === 0}>
          Import selected
        </button>
      </div>
    </Form>
  );
}

export default function ImportPage() {
  const answer = useActionData<typeof action>();
  const { jobs } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const sending = busy ? navigation.formData?.get("intent") : null;
  const viewer = useViewerName();
  return (
    <section className="page import-page">
      <p>
        <Link to="/settings">← Settings</Link>
      </p>
      <h1>Import</h1>
      {answer?.step === "error" && (
        <p className="notice flag" role="alert">
          {answer.message}
        </p>
      )}
      {answer?.step === "done" ? (
        <div className="import-done" role="status">
          <h2>Imported</h2>
          <p>
            {answer.outcome.created} new x-folder{answer.outcome.created === 1 ? "" : "s"}
            {answer.outcome.existing ? `, ${answer.outcome.existing} already there` : ""}
            {answer.outcome.failed.length ? `, ${answer.outcome.failed.length} not imported` : ""}.
          </p>
          {answer.outcome.failed.length > 0 && (
            <ul>
              {answer.outcome.failed.map((f) => (
                <li key={f.name}>
                  {f.name || "(no name)"}: {f.reason}
                </li>
              ))}
            </ul>
          )}
          <p className="import-actions">
            <Link to={`/${answer.username}?view=cv`} className="btn primary">
              See your portfolio
            </Link>
            <Link to={`/${answer.username}/cv`} className="btn">
              Printable CV
            </Link>
          </p>
        </div>
      ) : answer?.step === "preview" ? (
        <Preview items={answer.items} problems={answer.problems} username={viewer} />
      ) : (
        <>
          <RecentImports jobs={jobs} />
          <MastodonImport
            busy={sending === "mastodon"}
            error={answer?.step === "mastodon-error" ? answer.message : undefined}
          />
          <LinkedInUpload busy={busy && sending !== "mastodon"} />
        </>
      )}
    </section>
  );
}

function LinkedInUpload({ busy }: { busy: boolean }) {
  return (
    <UploadForm
      title="Your career from LinkedIn"
      intro="On LinkedIn, open Settings → Data privacy → Get a copy of your data, and ask for the archive. Upload the zip it sends you: positions, education, skills, projects, certifications, languages, courses, honors and volunteering become x-folders. You choose what to keep before anything is saved."
      file="LinkedIn export (.zip, up to 10 MB)"
      accept=".zip,application/zip"
      busy={busy}
      submit="Preview"
      busyWord="Reading…"
    />
  );
}

function useViewerName() {
  return useViewer()?.username ?? "";
}
