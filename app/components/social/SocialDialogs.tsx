import { Link, useFetcher, useLocation, useSearchParams } from "@remix-run/react";
import { REPORT_KINDS } from "../../../worker/features/reports/reports.constants";
import { pageOf } from "~/lib/scroll";
import { Dialog } from "../Dialog";
import { SubmitRow } from "../Field";
import { JsFlag } from "../JsFlag";

/**
 * Spec 2 Report dialog: the five kinds of spec 3. Content from another server (`host` in the
 * address) offers Mastodon's "Forward to <host>": the server sends it there anonymously (a Flag
 * from this instance, not from the reporter).
 */
export function ReportDialog() {
  const [params] = useSearchParams();
  const location = useLocation();
  const fetcher = useFetcher<{ ok: boolean }>({ key: "report" });
  const done = fetcher.data?.ok || params.get("reported") === "1";
  const close = pageOf(location);
  const host = params.get("host");
  return (
    <Dialog title="Report">
      {done ? (
        <>
          <p role="status">Thanks, we received your report.</p>
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
          {host ? (
            <label className="radio">
              <input type="checkbox" name="forward" /> Forward to {host}{" "}
              <small className="muted">The report is also sent, without your name, to the moderators of {host}.</small>
            </label>
          ) : null}
          <SubmitRow label="Report" />
        </fetcher.Form>
      )}
    </Dialog>
  );
}
