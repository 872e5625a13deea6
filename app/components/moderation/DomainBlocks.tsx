import { Form, useNavigation } from "@remix-run/react";
import { Field } from "~/components/Field";
import { relativeTime } from "~/lib/time";

export interface DomainBlock {
  domain: string;
  reason: string;
  created_at: number;
  moderator: string | null;
}

/**
 * The moderators' blocked servers (Mastodon's "Federation" admin page): block one with a reason,
 * lift one. Plain forms posting to /moderation, the same with or without JavaScript.
 */
export function DomainBlocks({
  domains,
  failed,
}: {
  domains: DomainBlock[];
  failed?: { error: string; domain?: string; reason?: string };
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <>
      <Form method="post" className="report-form" aria-label="Block a server">
        <input type="hidden" name="intent" value="block_domain" />
        <p className="muted">
          Nothing is accepted from a blocked server and nothing is sent to it; follows with its people end and they
          leave every timeline here.
        </p>
        <Field
          label="Server (domain)"
          name="domain"
          placeholder="mastodon.example"
          defaultValue={failed?.domain}
          required
        />
        <Field
          label="Reason"
          name="reason"
          maxLength={500}
          defaultValue={failed?.reason}
          error={failed?.error}
          required
        />
        <div className="row">
          <button type="submit" className="btn primary" disabled={busy}>
            Block server
          </button>
        </div>
      </Form>
      {domains.length === 0 ? (
        <p className="empty">No blocked servers</p>
      ) : (
        <ul className="mod-log" aria-label="Blocked servers">
          {domains.map((d) => (
            <li key={d.domain}>
              <strong>{d.domain}</strong>
              <span className="muted">
                {" "}
                · {relativeTime(d.created_at)}
                {d.moderator ? ` by @${d.moderator}` : ""}
              </span>
              <p className="muted">{d.reason}</p>
              <Form method="post">
                <input type="hidden" name="intent" value="unblock_domain" />
                <input type="hidden" name="domain" value={d.domain} />
                <button type="submit" className="btn" disabled={busy}>
                  Lift block on {d.domain}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
