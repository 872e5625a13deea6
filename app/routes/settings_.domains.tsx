import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { Ago } from "~/components/Ago";
import { Field } from "~/components/Field";
import { Toast } from "~/components/Toast";
import { apiFor, resultOf } from "~/lib/api.server";
import { listParams, must, readPage } from "~/lib/page.server";
import { returnPath } from "~/lib/url";
import { known } from "../../worker/db/reads";
import { serversRead } from "../../worker/features/safety/domain-blocks.service";
import { MoreLink, nextPageOf } from "../components/MoreLink";

// Settings → Blocked servers: a person's own block of a whole server (Mastodon's "Block domain"),
// beside their blocked and muted accounts. Forms that work without JavaScript; the list pages.

export const meta: MetaFunction = () => [{ title: "Blocked servers · Settings · NoteX" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { viewer, reads } = await readPage(request, context, {
    list: (db, me) => (me ? serversRead(db, me, listParams(url)) : known(null)),
  });
  const list = must(viewer, reads.list);
  if (!viewer.user || !list) throw redirect("/login");
  return { viewer, list, done: url.searchParams.get("done") };
}

type Answer = { message: string };

export async function action({ request, context }: ActionFunctionArgs): Promise<Answer | Response> {
  const api = apiFor(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const domain = String(form.get("domain") ?? "");
  const call =
    intent === "block"
      ? api.raw("/v1/domain-blocks", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ domain }),
        })
      : intent === "unblock"
        ? api.raw(`/v1/domain-blocks/${encodeURIComponent(domain)}`, { method: "DELETE" })
        : null;
  if (!call) throw new Response("Unknown intent", { status: 400 });
  const res = await resultOf<{ domain: string }>(await call);
  if (res.status === 401) throw redirect("/login");
  if (!res.ok) return { message: res.error.message };
  return redirect(returnPath(form.get("redirectTo"), { done: intent }, "/settings/domains"));
}

const DONE: Record<string, string> = { block: "Server blocked", unblock: "Server unblocked" };

export default function BlockedServers() {
  const { list, done } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as Answer | undefined;
  const busy = useNavigation().state === "submitting";
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.delete("done");
  const here = `${location.pathname}${params.size ? `?${params}` : ""}`;
  return (
    <section className="page settings">
      <p className="crumbs">
        <Link to="/settings">Settings</Link>
      </p>
      <h1>Blocked servers</h1>
      <p className="muted">
        Nothing from a server you block reaches you: its people's notes, replies, renotes and notifications leave your
        lists, and your followers there are removed. You cannot follow each other while it is blocked. They are not
        told.
      </p>
      <Form method="post" className="moving-form">
        <input type="hidden" name="intent" value="block" />
        <Field
          label="Server's domain"
          name="domain"
          placeholder="example.social"
          autoComplete="off"
          required
          error={answer?.message}
        />
        <button type="submit" className="btn danger" disabled={busy}>
          Block server
        </button>
      </Form>
      {list.domains.length === 0 ? (
        <p className="empty">You have not blocked any server.</p>
      ) : (
        <ul className="sessions aliases">
          {list.domains.map((d) => (
            <li key={d.id} className="session">
              <div>
                <p className="session-device">{d.domain}</p>
                <p className="muted">
                  blocked <Ago ms={d.created_at} /> ago
                </p>
              </div>
              <Form method="post">
                <input type="hidden" name="intent" value="unblock" />
                <input type="hidden" name="domain" value={d.domain} />
                <input type="hidden" name="redirectTo" value={here} />
                <button type="submit" className="btn small" aria-label={`Unblock ${d.domain}`}>
                  Unblock
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      {!list.paginator.is_end && <MoreLink to={nextPageOf(location.pathname, params, list)} />}
      <Toast message={done ? (DONE[done] ?? null) : null} id={done ?? undefined} />
    </section>
  );
}
