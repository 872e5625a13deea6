import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRouteLoaderData } from "@remix-run/react";
import type { z } from "zod";
import {
  ChangeEmail,
  type ChangePassword,
  ChangePasswordForm,
  ChangeUsername,
} from "../../worker/features/users/users.schema";
import type { UserJson } from "../../worker/features/users/users.service";
import { AccountSections, DeleteAccountDialog, type SettingsResult } from "~/components/account/AccountSections";
import { fieldErrors } from "../../worker/lib/errors";
import { EmailField, Field, FormError, NewPasswordFields, PASSWORD_HINT } from "~/components/Field";
import { ThemeSetting } from "~/components/ThemeSetting";
import { Toast } from "~/components/Toast";
import { apiFor, cookieHeaders, type PageApi, result } from "~/lib/api.server";
import { type ErrorContext, errorText } from "~/lib/errors";
import { readPage } from "~/lib/page.server";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction = () => [{ title: "Settings · NoteX" }];

type Section = "username" | "password" | "email";
const SECTIONS: Section[] = ["username", "password", "email"];

/** Actions beyond the spec's three sections (issue 17): confirmation, sessions, deletion. */
const ACCOUNT_INTENTS = ["resend", "end-session", "end-others", "delete"] as const;
type AccountIntent = (typeof ACCOUNT_INTENTS)[number];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const api = apiFor(request, context);
  // The person's record is the page's own batch (D1); the sessions are KV's.
  const [{ viewer }, sessions] = await Promise.all([readPage(request, context, {}), result(api.v1.sessions.$get())]);
  if (!viewer.user) throw redirect("/login");
  const edit = new URL(request.url).searchParams.get("edit");
  const url = new URL(request.url);
  return {
    viewer,
    user: viewer.user,
    sessions: sessions.ok ? sessions.data.sessions : [],
    deleting: url.searchParams.get("dialog") === "delete-account",
    edit: SECTIONS.includes(edit as Section) ? (edit as Section) : null,
    saved: url.searchParams.get("saved"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = Object.fromEntries(await request.formData()) as Record<string, string>;
  const api = apiFor(request, context);
  if (ACCOUNT_INTENTS.includes(form.intent as AccountIntent)) return accountAction(api, form);
  const section = form.intent as Section;
  if (!SECTIONS.includes(section)) throw new Response("Unknown intent", { status: 400 });
  const fail = (status: number, fields: Record<string, string>, error: string | null = null) =>
    data<SettingsResult>(
      { section, fields, error, value: section === "password" ? undefined : form[section] },
      { status },
    );

  const schema: z.ZodType =
    section === "username" ? ChangeUsername : section === "email" ? ChangeEmail : ChangePasswordForm;
  const parsed = schema.safeParse(form);
  if (!parsed.success) return fail(422, fieldErrors(parsed.error));
  const { confirm: _confirm, ...json } = parsed.data as Record<string, string>;
  const { users } = api.v1;
  const res = await result(
    section === "username"
      ? users.username.$patch({ json: json as z.input<typeof ChangeUsername> })
      : section === "email"
        ? users.email.$patch({ json: json as z.input<typeof ChangeEmail> })
        : users.password.$patch({ json: json as z.input<typeof ChangePassword> }),
  );
  if (!res.ok) {
    // Email asks for a sign-in again when the account has no password and its sign-in is old.
    if (res.status === 403) return fail(403, {}, res.error.message);
    const proved = section === "password" || section === "email";
    const field = proved && res.status === 401 ? "password" : section === "password" ? "new_password" : section;
    // The spec's text for this error, once, beside its field.
    const text = errorText(res.error, section as ErrorContext);
    return fail(res.status, { [field]: res.error.fields?.[field] ?? text ?? res.error.message });
  }
  // Redirect after a successful POST: the renewed session cookie (password change) reaches the
  // browser with or without JavaScript, and a reload cannot resubmit.
  return redirect(`/settings?saved=${section}`, { headers: cookieHeaders(res) });
}

/** Confirmation mail, sessions and deletion: each calls the API and comes back to Settings. */
async function accountAction(api: PageApi, form: Record<string, string>) {
  const intent = form.intent as AccountIntent;
  const { v1 } = api;
  // An empty id would drop its path segment (DELETE /sessions ends all the others).
  if (intent === "end-session" && !form.id) throw new Response("Unknown session", { status: 400 });
  const res = await result(
    intent === "resend"
      ? v1.email.confirm.$post()
      : intent === "end-session"
        ? v1.sessions[":id"].$delete({ param: { id: form.id } })
        : intent === "end-others"
          ? v1.sessions.$delete()
          : v1.users.$delete({ json: { password: form.password, username: form.username } }),
  );
  if (!res.ok) {
    const fields = res.error.fields ?? {};
    const error = res.status === 429 || res.status === 409 ? res.error.message : (errorText(res.error) ?? null);
    return data<SettingsResult>(
      { section: intent, fields, error: Object.keys(fields).length ? null : error },
      { status: res.status },
    );
  }
  if (intent === "delete") return redirect("/?deleted=1", { headers: cookieHeaders(res) });
  // Ending the session in use signs this browser out.
  if (res.setCookies.some((c) => c.startsWith("notex_sid=;"))) return redirect("/", { headers: cookieHeaders(res) });
  return redirect(`/settings?saved=${intent}`, { headers: cookieHeaders(res) });
}

const SAVED: Record<string, string> = {
  email: "Check your new address for a confirmation link",
  resend: "Confirmation link sent",
  "end-session": "Signed out of that device",
  "end-others": "Signed out of every other device",
};

/** Under the address: confirmed or not, a pending change, and a button to send the link again. */
function EmailStatus({ user }: { user: UserJson }) {
  const result = useActionData<SettingsResult>();
  const waiting = user.pending_email ?? (user.confirmed ? null : user.email);
  return (
    <div className="email-status">
      {user.pending_email ? (
        <p className="pill warn">Changing to {user.pending_email}: waiting for confirmation</p>
      ) : user.confirmed ? (
        <p className="pill ok">Confirmed</p>
      ) : (
        <p className="pill warn">Not confirmed</p>
      )}
      {waiting && (
        <Form method="post" className="inline">
          <input type="hidden" name="intent" value="resend" />
          <button className="btn small" type="submit">
            Send link again
          </button>
        </Form>
      )}
      <FormError error={result?.section === "resend" ? result.error : undefined} />
    </div>
  );
}

function Row({
  title,
  value,
  section,
  edit,
  status,
  children,
}: {
  title: string;
  value: string;
  section: Section;
  edit: Section | null;
  status?: React.ReactNode;
  children: React.ReactNode;
}) {
  const open = edit === section;
  return (
    <section className="settings-row" aria-labelledby={`h-${section}`}>
      <div className="settings-head">
        <h2 id={`h-${section}`}>{title}</h2>
        {!open && (
          <Link
            to={`?edit=${section}`}
            className="btn small"
            preventScrollReset
            aria-label={`Change ${title.toLowerCase()}`}
          >
            Change
          </Link>
        )}
      </div>
      {open ? children : <p className="muted">{value}</p>}
      {!open && status}
    </section>
  );
}

export default function Settings() {
  const { user, sessions, deleting, edit: editParam, saved } = useLoaderData<typeof loader>();
  const result = useActionData<SettingsResult>();
  const busy = useNavigation().state === "submitting";
  const theme = useRouteLoaderData<typeof rootLoader>("root")?.theme ?? "system";
  // A failed save keeps its section open; a successful one closes it.
  const edit = result && SECTIONS.includes(result.section as Section) ? (result.section as Section) : editParam;
  const err = (s: Section) => (result?.section === s ? result : undefined);
  const actions = (
    <div className="row">
      <Link to="/settings" className="btn" preventScrollReset>
        Cancel
      </Link>
      <button className="btn primary" type="submit" disabled={busy}>
        Save
      </button>
    </div>
  );
  return (
    <section className="page settings">
      <h1>Settings</h1>
      <section className="settings-row" aria-labelledby="h-profile">
        <div className="settings-head">
          <h2 id="h-profile">Profile</h2>
          <Link to="/settings/profile" className="btn small" aria-label="Edit profile">
            Edit
          </Link>
        </div>
        <p className="muted">Name, headline, bio, location, links and pictures: what people see first.</p>
      </section>
      <Row title="Username" value={`@${user.username}`} section="username" edit={edit}>
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="username" />
          {err("username")?.error && <p className="form-error">{err("username")?.error}</p>}
          <Field
            label="Username"
            name="username"
            defaultValue={err("username")?.value ?? user.username}
            error={err("username")?.fields?.username}
            autoComplete="username"
          />
          {actions}
        </Form>
      </Row>
      <Row
        title="Password"
        value="••••••••"
        section="password"
        edit={edit}
        status={
          saved === "password" && !result ? (
            <p className="notice ok" role="status">
              Password changed. Every other device signed in to your account was signed out; this one stays signed in.
            </p>
          ) : null
        }
      >
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="password" />
          <FormError error={err("password")?.error} />
          <Field
            label="Current password"
            name="password"
            type="password"
            autoComplete="current-password"
            error={err("password")?.fields?.password}
          />
          <NewPasswordFields
            name="new_password"
            label="New password"
            hint={PASSWORD_HINT}
            errors={err("password")?.fields}
          />
          {actions}
        </Form>
      </Row>
      <Row title="Email" value={user.email ?? ""} section="email" edit={edit} status={<EmailStatus user={user} />}>
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="email" />
          <FormError error={err("email")?.error} />
          <EmailField
            defaultValue={err("email")?.value ?? user.email ?? undefined}
            error={err("email")?.fields?.email}
          />
          {/* A reset link goes to this address: changing it proves it is you, as a password change does. */}
          {user.has_password === false ? (
            <p className="muted">Without a password, you can change it within 10 minutes of signing in.</p>
          ) : (
            <Field
              label="Current password"
              name="password"
              type="password"
              autoComplete="current-password"
              error={err("email")?.fields?.password}
            />
          )}
          {actions}
        </Form>
      </Row>
      <ThemeSetting theme={theme} />
      <section className="settings-row" aria-labelledby="h-safety">
        <div className="settings-head">
          <h2 id="h-safety">Blocked and muted</h2>
        </div>
        <p className="settings-links">
          <Link to="/settings/blocked">Blocked accounts</Link>
          <Link to="/settings/muted">Muted accounts</Link>
          <Link to="/settings/domains">Blocked servers</Link>
        </p>
      </section>
      <section className="settings-row" aria-labelledby="h-apps">
        <div className="settings-head">
          <h2 id="h-apps">Authorised apps</h2>
        </div>
        <p className="settings-links">
          <Link to="/settings/apps">Mastodon apps signed in to your account</Link>
        </p>
      </section>
      <section className="settings-row" aria-labelledby="h-import">
        <div className="settings-head">
          <h2 id="h-import">Import</h2>
        </div>
        <p className="settings-links">
          <Link to="/settings/import">Bring your career from LinkedIn as x-folders</Link>
          <Link to="/settings/import/archive">Bring your posts from a Mastodon archive</Link>
          <Link to="/settings/moving">Moving from another account, or to one</Link>
        </p>
      </section>
      {/* Leaving (Delete account) comes last, after where you are signed in and your data. */}
      <AccountSections user={user} sessions={sessions} result={result} />
      {(deleting || result?.section === "delete") && <DeleteAccountDialog user={user} result={result} />}
      <Toast
        message={saved && saved !== "password" && !result ? (SAVED[saved] ?? "Saved") : null}
        id={saved ?? undefined}
      />
    </section>
  );
}
