import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect } from "react";
import { Ago } from "~/components/Ago";
import { apiFor, resultOf } from "~/lib/api.server";
import { must, readPage } from "~/lib/page.server";
import { known } from "../../worker/db/reads";
import { jobRead } from "../../worker/features/imports/jobs";
import { isLive, type JobView } from "../../worker/features/imports/jobs.view";

// An import's progress (worker/features/imports/jobs.ts). With JavaScript the page reads the job
// again every two seconds while it runs and the bar moves; without, the page refreshes itself
// (<meta http-equiv=refresh> inside <noscript>, so a page with JavaScript never reloads whole).

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.job ? `Import of ${data.job.title.toLowerCase()}` : "Import"} · Settings · NoteX` },
];

const jobIdOf = (raw: string | undefined) => (raw && /^\d{1,16}$/.test(raw) ? Number(raw) : 0);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = jobIdOf(params.id);
  const { viewer, reads } = await readPage(request, context, {
    job: (db, me) => (me ? jobRead(db, me, id) : known(null)),
  });
  if (!viewer.user) throw redirect("/login");
  const job: JobView | null = must(viewer, reads.job);
  return { viewer, job };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const id = jobIdOf(params.id);
  const res = await resultOf<JobView>(
    await apiFor(request, context).raw(`/v1/imports/jobs/${id}/cancel`, { method: "POST" }),
  );
  if (res.status === 401) throw redirect("/login");
  return redirect(`/settings/import/jobs/${id}`);
}

const STATE: Record<JobView["state"], string> = {
  queued: "Waiting to start…",
  running: "Importing…",
  done: "Done",
  cancelled: "Cancelled",
  failed: "Stopped by a fault on our side; what was imported stays",
};

/** Reads the job again every two seconds while it is live (JavaScript on). */
function usePolling(live: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!live || state !== "idle") return;
    const timer = setTimeout(revalidate, 2000);
    return () => clearTimeout(timer);
  }, [live, state, revalidate]);
}

export default function ImportJob() {
  const { job } = useLoaderData<typeof loader>();
  const busy = useNavigation().state === "submitting";
  const live = !!job && isLive(job.state);
  usePolling(live);
  if (!job) return null;
  const seen = job.done + job.failed;
  const percent = job.total ? Math.round((Math.min(seen, job.total) / job.total) * 100) : 100;
  return (
    <section className="page narrow import-job">
      {live && (
        <noscript>
          <meta httpEquiv="refresh" content="3" />
        </noscript>
      )}
      <p>
        <Link to="/settings/import">← Import</Link>
      </p>
      <h1>
        {job.title} from {job.file_name || "a file"}
      </h1>
      <p className="muted">
        {job.mode === "overwrite" ? "Replacing what you had" : "Added to what you had"} · started{" "}
        <Ago ms={job.created_at} /> ago
      </p>
      <div className={`job-progress ${job.state}`} role="status" aria-live="polite">
        <p className="job-state">{STATE[job.state]}</p>
        <progress value={Math.min(seen, job.total)} max={job.total || 1} aria-label="Progress">
          {percent}%
        </progress>
        <p className="job-counts">
          <strong>{job.done.toLocaleString("en")}</strong> imported
          {job.failed > 0 && (
            <>
              {" "}
              · <strong>{job.failed.toLocaleString("en")}</strong> not imported
            </>
          )}{" "}
          · {job.total.toLocaleString("en")} in the file
        </p>
      </div>
      {live && (
        <Form method="post" className="import-actions">
          <button type="submit" className="btn" disabled={busy}>
            Cancel import
          </button>
        </Form>
      )}
      {job.failures.length > 0 && (
        <details className="import-problems" open={!live}>
          <summary>Not imported ({job.failed.toLocaleString("en")})</summary>
          <ul>
            {job.failures.map((f) => (
              <li key={`${f.row}:${f.item}`}>
                Row {f.row}
                {f.item ? <>, {f.item}</> : null}: {f.reason}
              </li>
            ))}
          </ul>
          {job.failed > job.failures.length && <p className="muted">The first {job.failures.length} are listed.</p>}
        </details>
      )}
    </section>
  );
}
