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
// Its total is the rows to import, each then imported or not; the rows the upload's own check left
// out (a duplicate, a line that is no address) are listed apart, as Mastodon's import page counts.

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

type Problem = JobView["failures"][number];

/** Rows with why, the first `listed` of `count`, under a summary that names them. */
function Problems({ title, count, list, open }: { title: string; count: number; list: Problem[]; open: boolean }) {
  if (!list.length) return null;
  return (
    <details className="import-problems" open={open}>
      <summary>
        {title} ({count.toLocaleString("en")})
      </summary>
      <ul>
        {list.map((f) => (
          <li key={`${f.row}:${f.item}`}>
            {f.row > 0 ? `Row ${f.row}` : null}
            {f.row > 0 && f.item ? ", " : null}
            {f.item}: {f.reason}
          </li>
        ))}
      </ul>
      {count > list.length && <p className="muted">The first {list.length} are listed.</p>}
    </details>
  );
}

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
  const seen = Math.min(job.done + job.failed, job.total);
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
        <progress value={seen} max={job.total || 1} aria-label="Progress">
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
          · of {job.total.toLocaleString("en")} to import
        </p>
        {job.refused > 0 && (
          <p className="muted">
            {job.refused.toLocaleString("en")} {job.refused === 1 ? "row was" : "rows were"} left out when the file was
            read (listed below).
          </p>
        )}
      </div>
      {live && (
        <Form method="post" className="import-actions">
          <button type="submit" className="btn" disabled={busy}>
            Cancel import
          </button>
        </Form>
      )}
      <Problems title="Not imported" count={job.failed} list={job.failures} open={!live} />
      <Problems title="Left out when the file was read" count={job.refused} list={job.refusals} open={!live} />
    </section>
  );
}
