import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Ago } from "~/components/Ago";
import { Field } from "~/components/Field";
import { Toast } from "~/components/Toast";
import { apiFor, resultOf } from "~/lib/api.server";
import { viewerIdOf, withViewer } from "~/lib/page.server";
import { profilePath } from "~/lib/url";
import { siteOriginOf } from "../../worker/features/federation/context";
import { moveState } from "../../worker/features/moves/state";

export const meta: MetaFunction = () => [{ title: "Moving accounts · Settings · NoteX" }];

/** Settings → Moving: the accounts this one came from (aliases), and moving it somewhere else. */
export async function loader(args: LoaderFunctionArgs) {
  const uid = viewerIdOf(args.context);
  if (!uid) throw redirect("/login");
  const { env } = args.context.cloudflare;
  const origin = siteOriginOf(env, args.request.url);
  const done = new URL(args.request.url).searchParams.get("done");
  return withViewer(args, async () => {
    const [state, me] = await Promise.all([
      moveState(env, origin, uid),
      env.DB.prepare("select username, password_hash is not null as pw from users where id = ?")
        .bind(uid)
        .first<{ username: string; pw: number }>(),
    ]);
    return { ...state, address: `${me?.username}@${new URL(origin).host}`, hasPassword: !!me?.pw, done };
  });
}

type Answer = { form: "alias" | "move"; message: string; field?: string };

export async function action({ request, context }: ActionFunctionArgs): Promise<Answer | Response> {
  const api = apiFor(request, context);
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "");
  const text = (k: string) => String(form.get(k) ?? "");
  const call =
    intent === "add"
      ? api.raw("/v1/moves/aliases", {
          method: "POST",
          headers: JSON_TYPE,
          body: JSON.stringify({ handle: text("handle") }),
        })
      : intent === "remove"
        ? api.raw(`/v1/moves/aliases?uri=${encodeURIComponent(text("uri"))}`, { method: "DELETE" })
        : intent === "move"
          ? api.raw("/v1/moves", {
              method: "POST",
              headers: JSON_TYPE,
              body: JSON.stringify({ handle: text("handle"), password: text("password"), username: text("username") }),
            })
          : null;
  if (!call) throw new Response("Unknown intent", { status: 400 });
  const res = await resultOf<unknown>(await call);
  if (res.ok) return redirect(`/settings/moving?done=${intent}`);
  if (res.status === 401 && res.error.code !== "bad_password") throw redirect("/login");
  const fields = res.error.fields ?? {};
  return { form: intent === "move" ? "move" : "alias", message: res.error.message, field: Object.keys(fields)[0] };
}

const JSON_TYPE = { "content-type": "application/json" };
const DONE: Record<string, string> = { add: "Alias added", remove: "Alias removed", move: "Moved" };

/** The page's two forms: an account's address (an alias to add, or where to move), and what the action asks besides. */
function HandleForm(props: {
  intent: "add" | "move";
  label: string;
  placeholder: string;
  error?: string;
  button: string;
  danger?: boolean;
  busy: boolean;
  children?: ReactNode;
}) {
  return (
    <Form method="post" className="moving-form">
      <input type="hidden" name="intent" value={props.intent} />
      <Field
        label={props.label}
        name="handle"
        placeholder={props.placeholder}
        autoComplete="off"
        required
        error={props.error}
      />
      {props.children}
      <button type="submit" className={`btn ${props.danger ? "danger" : "primary"}`} disabled={props.busy}>
        {props.button}
      </button>
    </Form>
  );
}

export default function MovingSettings() {
  const { aliases, moved_to, address, hasPassword, done } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as Answer | undefined;
  const busy = useNavigation().state === "submitting";
  const err = (form: Answer["form"]) => (answer?.form === form ? answer : null);
  const moveErr = err("move");
  return (
    <section className="page narrow moving-page">
      <p>
        <Link to="/settings">← Settings</Link>
      </p>
      <h1>Moving accounts</h1>
      <section className="settings-row" aria-labelledby="h-from">
        <h2 id="h-from">Moving from another account</h2>
        <p className="muted">
          To bring your followers from Mastodon (or any fediverse server), add that account here first. Then, on the old
          server, move it to <strong>{address}</strong> (on Mastodon: Preferences → Account → Move to a different
          account). Their servers check this list before your followers follow you here.
        </p>
        {aliases.length > 0 && (
          <ul className="sessions aliases">
            {aliases.map((a) => (
              <li key={a.uri} className="session">
                <div>
                  <p className="session-device">{a.handle}</p>
                  <p className="muted">
                    added <Ago ms={a.created_at} /> ago
                  </p>
                </div>
                <Form method="post">
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="uri" value={a.uri} />
                  <button className="btn small" type="submit" aria-label={`Remove ${a.handle}`}>
                    Remove
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
        <HandleForm
          intent="add"
          label="Your old account's address"
          placeholder="name@mastodon.social"
          error={err("alias")?.message}
          button="Add alias"
          busy={busy}
        />
      </section>
      <section className="settings-row" aria-labelledby="h-to">
        <h2 id="h-to">Moving to another account</h2>
        {moved_to ? (
          <p className="notice moved" role="status">
            This account has moved to <Link to={profilePath(moved_to.username)}>@{moved_to.username}</Link>. It stays
            readable here; new notes are no longer sent to the fediverse.
          </p>
        ) : (
          <>
            <p className="muted">
              Your followers here and elsewhere will follow the new account instead, and your profile will say where you
              went. First add <strong>{address}</strong> as an alias on the new account. Your notes stay here; nothing
              new is sent out from this account afterwards.
            </p>
            <HandleForm
              intent="move"
              label="The new account's address"
              placeholder="name@example.social"
              error={
                moveErr && moveErr.field !== "password" && moveErr.field !== "username" ? moveErr.message : undefined
              }
              button="Move this account"
              danger
              busy={busy}
            >
              {hasPassword ? (
                <Field
                  label="Your password"
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  required
                  error={moveErr?.field === "password" ? moveErr.message : undefined}
                />
              ) : (
                <Field
                  label="Type your username to confirm"
                  name="username"
                  autoComplete="off"
                  required
                  error={moveErr?.field === "username" ? moveErr.message : undefined}
                />
              )}
            </HandleForm>
          </>
        )}
      </section>
      <Toast message={done ? (DONE[done] ?? null) : null} id={done ?? undefined} />
    </section>
  );
}
