import { notHere, readPage } from "~/lib/page.server";
import { known, mapRead, type Read } from "../../worker/db/reads";
import { domainBlocksRead, moderationLogRead, reportQueueRead } from "../../worker/features/safety/moderation.reads";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { profilePath } from "~/lib/url";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ACTIONS, TARGET_KINDS } from "../../worker/features/safety/moderation.service";
import { Toast } from "~/components/Toast";
import { apiFor, result } from "~/lib/api.server";
import { relativeTime } from "~/lib/time";
import { Tabs, tabLinks } from "~/components/Tabs";
import { FieldError } from "~/components/Field";
import { type DomainBlock, DomainBlocks } from "~/components/moderation/DomainBlocks";
import { MoreLink } from "../components/MoreLink";

export const meta: MetaFunction = () => [{ title: "Moderation · NoteX" }];

interface Group {
  kind: string;
  id: number;
  count: number;
  kinds: { id: number; name: string }[];
  reporters: { id: number; username: string; fullname: string; note: string }[];
  last_at: number;
  content: {
    id: number;
    username: string;
    fullname: string;
    label: string;
    txt: string;
    slug?: string;
    hidden: number;
    suspended: number;
  } | null;
}
interface LogEntry {
  id: number;
  kind: string;
  target_id: number;
  action: string;
  reason: string;
  moderator: string;
  owner: string;
  created_at: number;
}
type Paged = { paginator: { page: number; is_end: boolean } };
type Tab = "open" | "closed" | "log" | "servers";

/** What a tab lists: its page of reports, log entries or blocked servers. */
interface Listed {
  paginator: Paged["paginator"];
  reports?: Group[];
  entries?: LogEntry[];
  domains?: DomainBlock[];
}

interface ModerationData extends Listed {
  tab: Tab;
  page: number;
  done: string | null;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const t = url.searchParams.get("tab");
  const tab: Tab = t === "closed" || t === "log" || t === "servers" ? t : "open";
  const page = Math.max(1, Number(url.searchParams.get("page")) || 1);
  // The tab's list rides in the page's batch; each of these reads checks the reader's role itself.
  const { viewer, reads } = await readPage(request, context, {
    list: (db, me): Read<Listed | null> =>
      !me
        ? known(null)
        : tab === "servers"
          ? mapRead(domainBlocksRead(db, me), ({ domains }) => ({ paginator: { page: 1, is_end: true }, domains }))
          : tab === "log"
            ? moderationLogRead(db, me, { page })
            : reportQueueRead(db, me, tab, page),
  });
  // Signed out: the login page; not a moderator: the page is simply not there for them (a 404).
  if (!viewer.user) throw redirect("/login");
  if (!reads.list.ok || !reads.list.data) throw notHere(viewer);
  const data: ModerationData = { tab, page, done: url.searchParams.get("done"), ...reads.list.data };
  return { ...data, viewer };
}

/** Blocking or lifting a server (the Servers tab's forms). */
async function domainAction(args: ActionFunctionArgs, form: Record<string, string>) {
  const api = apiFor(args.request, args.context).v1.moderation.domains;
  const res =
    form.intent === "block_domain"
      ? await result(api.$post({ json: { domain: form.domain ?? "", reason: form.reason ?? "" } }))
      : await result(api[":domain"].$delete({ param: { domain: form.domain ?? "" } }));
  if (!res.ok) {
    const error = res.error.fields?.domain ?? res.error.fields?.reason ?? res.error.message;
    return data({ target: "servers", error, domain: form.domain, reason: form.reason }, { status: res.status });
  }
  return redirect(`/moderation?tab=servers&done=${form.intent}`);
}

export async function action(args: ActionFunctionArgs) {
  const { request, context } = args;
  const form = Object.fromEntries(await request.formData()) as Record<string, string>;
  if (form.intent === "block_domain" || form.intent === "unblock_domain") return domainAction(args, form);
  const res = await result(
    apiFor(request, context).v1.moderation.actions.$post({
      // The form's words as the API names them; the API refuses anything else with its messages.
      json: {
        kind: form.kind as (typeof TARGET_KINDS)[number],
        id: Number(form.id),
        action: form.action as (typeof ACTIONS)[number],
        reason: form.reason ?? "",
      },
    }),
  );
  if (!res.ok) {
    return data(
      { target: `${form.kind}-${form.id}`, error: res.error.fields?.reason ?? res.error.message, reason: form.reason },
      { status: res.status },
    );
  }
  return redirect(`/moderation?done=${encodeURIComponent(form.action)}`);
}

const DONE: Record<string, string> = {
  dismiss: "Reports dismissed",
  hide: "Content hidden",
  restore: "Content restored",
  suspend: "Account suspended",
  unsuspend: "Account restored",
  block_domain: "Server blocked",
  unblock_domain: "Server block lifted",
};

const href = (g: Group) => {
  const c = g.content;
  if (!c) return null;
  if (g.kind === "note") return `/${c.username}/note/${c.id}`;
  if (g.kind === "reply") return `/${c.username}/rep/${c.id}`;
  return `/${c.username}/x/${c.slug}`;
};

function ReportCard({ g, failed }: { g: Group; failed?: { error: string; reason?: string } }) {
  const busy = useNavigation().state === "submitting";
  const c = g.content;
  const hideable = g.kind === "note" || g.kind === "reply";
  const link = href(g);
  const key = `${g.kind}-${g.id}`;
  return (
    <article className="report-card" aria-label={`Reports about ${g.kind} ${g.id}`}>
      <header className="report-head">
        <strong>
          {g.count} {g.count === 1 ? "report" : "reports"}
        </strong>
        <span className="muted">
          {" "}
          · {g.kind} · {relativeTime(g.last_at)}
        </span>
        <ul className="tags">
          {g.kinds.map((k) => (
            <li key={k.id} className="tag">
              {k.name}
            </li>
          ))}
        </ul>
      </header>
      {c ? (
        <div className="report-content">
          <p>
            <Link to={profilePath(c.username)}>
              <strong>{c.fullname}</strong> <small>@{c.username}</small>
            </Link>
            {c.label && <span className="muted"> · {c.label}</span>}
            {!!c.hidden && <span className="badge-pill">Hidden</span>}
            {!!c.suspended && <span className="badge-pill">Suspended</span>}
          </p>
          <blockquote>{c.txt || "(no text)"}</blockquote>
          {link && <Link to={link}>Open</Link>}
        </div>
      ) : (
        <p className="muted">This content was deleted.</p>
      )}
      <p className="muted">Reported by {g.reporters.map((r) => `@${r.username}`).join(", ")}</p>
      {g.reporters
        .filter((r) => r.note)
        .map((r) => (
          <figure key={r.id} className="report-note">
            <blockquote>{r.note}</blockquote>
            <figcaption className="muted">@{r.username} wrote</figcaption>
          </figure>
        ))}
      <Form method="post" className="report-form">
        <input type="hidden" name="kind" value={g.kind} />
        <input type="hidden" name="id" value={g.id} />
        <label htmlFor={`action-${key}`}>Action</label>
        <select
          id={`action-${key}`}
          name="action"
          defaultValue={hideable ? (c?.hidden ? "restore" : "hide") : "dismiss"}
        >
          <option value="dismiss">Dismiss reports</option>
          {hideable && <option value="hide">Hide content</option>}
          {hideable && <option value="restore">Restore content</option>}
          <option value="suspend">Suspend author</option>
          <option value="unsuspend">Unsuspend author</option>
        </select>
        <label htmlFor={`reason-${key}`}>Reason (sent to the author)</label>
        <textarea
          id={`reason-${key}`}
          name="reason"
          rows={2}
          maxLength={500}
          defaultValue={failed?.reason}
          aria-invalid={failed ? true : undefined}
        />
        <FieldError error={failed?.error} />
        <div className="row">
          <button type="submit" className="btn primary" disabled={busy}>
            Apply
          </button>
        </div>
      </Form>
    </article>
  );
}

export default function Moderation() {
  const { tab, page, done, paginator, reports, entries, domains } = useLoaderData<typeof loader>();
  const failed = useActionData<{ target: string; error: string; reason?: string; domain?: string }>();
  return (
    <section className="page">
      <h1>Moderation</h1>
      <Tabs
        label="Moderation"
        current={tab}
        tabs={tabLinks("/moderation", "tab", { open: "Open", closed: "Closed", log: "Log", servers: "Servers" })}
      />
      {domains && <DomainBlocks domains={domains} failed={failed?.target === "servers" ? failed : undefined} />}
      {reports &&
        (reports.length === 0 ? (
          <p className="empty">{tab === "open" ? "No open reports. All clear." : "No closed reports yet"}</p>
        ) : (
          reports.map((g) => (
            <ReportCard
              key={`${g.kind}-${g.id}`}
              g={g}
              failed={failed?.target === `${g.kind}-${g.id}` ? failed : undefined}
            />
          ))
        ))}
      {entries &&
        (entries.length === 0 ? (
          <p className="empty">No actions yet</p>
        ) : (
          <ul className="mod-log">
            {entries.map((e) => (
              <li key={e.id}>
                <strong>@{e.moderator}</strong> {e.action} · {e.kind} {e.target_id} by @{e.owner}
                <span className="muted"> · {relativeTime(e.created_at)}</span>
                <p className="muted">{e.reason}</p>
              </li>
            ))}
          </ul>
        ))}
      {!paginator.is_end && <MoreLink to={`?${tab === "open" ? "" : `tab=${tab}&`}page=${page + 1}`} />}
      <Toast message={done ? (DONE[done] ?? "Done") : null} id={done ?? undefined} />
    </section>
  );
}
