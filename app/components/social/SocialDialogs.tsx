import { Link, useFetcher, useLocation, useSearchParams } from "@remix-run/react";
import { REPORT_KINDS, REPORT_NOTE_MAX } from "../../../worker/features/reports/reports.constants";
import { pageOf } from "~/lib/scroll";
import { Dialog } from "../Dialog";
import { FieldError, SubmitRow } from "../Field";
import { JsFlag } from "../JsFlag";

type Answer = {
  ok: boolean;
  data?: { blocking: boolean };
  error?: { message: string; fields?: Record<string, string> };
};

/**
 * Spec 2 Report dialog: the five kinds of spec 3, then (optional) a note in the reporter's words
 * for the moderators and "also block" the author. Content from another server (`host` in the
 * address) offers Mastodon's "Forward to <host>": the server sends it there anonymously (a Flag
 * from this instance, not from the reporter).
 */
export function ReportDialog() {
  const [params] = useSearchParams();
  const location = useLocation();
  const fetcher = useFetcher<Answer>({ key: "report" });
  const reported = params.get("reported");
  const done = fetcher.data?.ok || reported === "1" || reported === "blocked";
  const blocked = fetcher.data?.data?.blocking || reported === "blocked";
  const author = params.get("u");
  const close = pageOf(location);
  const failed = fetcher.data && !fetcher.data.ok ? fetcher.data.error : undefined;
  const host = params.get("host");
  return (
    <Dialog title="Report">
      {done ? (
        <>
          <p role="status">
            Thanks, we received your report.
            {blocked && author && ` You have blocked @${author}: you will not see each other's notes any more.`}
          </p>
          <Link to={close} className="btn" replace preventScrollReset>
            Close
          </Link>
        </>
      ) : (
        <fetcher.Form method="post" action="/actions/report">
          <input type="hidden" name="id" value={params.get("id") ?? ""} />
          <input type="hidden" name="t" value={params.get("kind") ?? "note"} />
          <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
          <JsFlag />
          <fieldset>
            <legend>Why are you reporting this?</legend>
            {Object.entries(REPORT_KINDS).map(([k, text]) => (
              <label key={k} className="radio">
                <input type="radio" name="kind" value={k} required /> {text}
              </label>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="report-note">Anything else the moderators should know? (optional)</label>
            <textarea
              id="report-note"
              name="note"
              rows={3}
              maxLength={REPORT_NOTE_MAX}
              aria-invalid={failed?.fields?.note ? true : undefined}
            />
            <FieldError error={failed?.fields?.note} />
          </div>
          {author && (
            <label className="radio">
              <input type="checkbox" name="block" /> Also block @{author}
            </label>
          )}
          {host ? (
            <label className="radio">
              <input type="checkbox" name="forward" /> Forward to {host}{" "}
              <small className="muted">The report is also sent, without your name, to the moderators of {host}.</small>
            </label>
          ) : null}
          {reported === "0" && <p className="form-error">Something went wrong, please try again.</p>}
          <SubmitRow label="Report" />
        </fetcher.Form>
      )}
    </Dialog>
  );
}
