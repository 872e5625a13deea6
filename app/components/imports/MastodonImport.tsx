import { Link } from "@remix-run/react";
import { Ago } from "~/components/Ago";
import { UploadForm } from "~/components/imports/UploadForm";
import type { JobView } from "../../../worker/features/imports/jobs.view";

// Settings → Import: the CSV files of Mastodon's data export, as Mastodon's own import form
// offers them (what the file holds; merge or overwrite), and the person's latest imports.

const KINDS = [
  { value: "following", label: "Follows", file: "following_accounts.csv" },
  { value: "blocks", label: "Blocks", file: "blocked_accounts.csv" },
  { value: "mutes", label: "Mutes", file: "muted_accounts.csv" },
  { value: "domain_blocks", label: "Blocked servers", file: "blocked_domains.csv" },
  { value: "bookmarks", label: "Bookmarks", file: "bookmarks.csv" },
] as const;

export function MastodonImport({ busy, error }: { busy: boolean; error?: string }) {
  return (
    <UploadForm
      title="From Mastodon"
      intro="On Mastodon, open Preferences → Import and export → Data export and download the CSV you want. Accounts on other servers are looked up as the import runs; you can leave this page meanwhile."
      file="Mastodon CSV (up to 2 MB)"
      accept=".csv,text/csv"
      busy={busy}
      submit="Import"
      busyWord="Uploading…"
      className="mastodon-import"
    >
      <input type="hidden" name="intent" value="mastodon" />
      {error && (
        <p className="notice flag" role="alert">
          {error}
        </p>
      )}
      <label className="field">
        <span>What the file holds</span>
        <select name="kind" defaultValue="following">
          {KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label} ({k.file})
            </option>
          ))}
        </select>
      </label>
      <fieldset className="import-mode">
        <legend>How to import</legend>
        <label className="radio">
          <input type="radio" name="mode" value="merge" defaultChecked />
          <span>
            <strong>Merge</strong> <span className="muted">— keep what you have and add what the file holds</span>
          </span>
        </label>
        <label className="radio">
          <input type="radio" name="mode" value="overwrite" />
          <span>
            <strong>Overwrite</strong> <span className="muted">— replace what you have with what the file holds</span>
          </span>
        </label>
      </fieldset>
    </UploadForm>
  );
}

const STATE_WORD: Record<JobView["state"], string> = {
  queued: "waiting",
  running: "importing",
  done: "done",
  cancelled: "cancelled",
  failed: "stopped",
};

export function RecentImports({ jobs }: { jobs: JobView[] }) {
  if (!jobs.length) return null;
  return (
    <section className="recent-imports" aria-labelledby="h-recent">
      <h2 id="h-recent">Your imports</h2>
      <ul className="sessions">
        {jobs.map((j) => (
          <li key={j.id} className="session">
            <div>
              <p className="session-device">
                <Link to={`/settings/import/jobs/${j.id}`}>
                  {j.title} · {j.file_name || "a file"}
                </Link>
              </p>
              <p className="muted">
                {STATE_WORD[j.state]} · {j.done.toLocaleString("en")} of {j.total.toLocaleString("en")}
                {j.failed ? ` · ${j.failed.toLocaleString("en")} not imported` : ""}
                {j.refused ? ` · ${j.refused.toLocaleString("en")} left out` : ""} · <Ago ms={j.created_at} /> ago
              </p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
