import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import type { z } from "zod";
import { ChangeEmail, ChangePasswordForm, ChangeUsername } from "../../worker/features/users/users.schema";
import type { UserJson } from "../../worker/features/users/users.service";
import { fieldErrors } from "../../worker/lib/errors";
import { Field } from "~/components/Field";
import { Toast } from "~/components/Toast";
import { apiFor, cookieHeaders } from "~/lib/api.server";
import { type ErrorContext, errorText } from "~/lib/errors";

export const meta: MetaFunction = () => [{ title: "Settings · NoteX" }];

type Section = "username" | "password" | "email";
const SECTIONS: Section[] = ["username", "password", "email"];

interface SettingsResult {
  section: Section;
  error?: string | null;
  fields?: Record<string, string>;
  value?: string;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const me = await apiFor(request, context).get<UserJson>("/me");
  if (!me.ok) throw redirect("/login");
  const edit = new URL(request.url).searchParams.get("edit");
  const url = new URL(request.url);
  return {
    user: me.data,
    edit: SECTIONS.includes(edit as Section) ? (edit as Section) : null,
    saved: url.searchParams.get("saved"),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = Object.fromEntries(await request.formData()) as Record<string, string>;
  const section = form.intent as Section;
  if (!SECTIONS.includes(section)) throw new Response("Unknown intent", { status: 400 });
  const api = apiFor(request, context);
  const fail = (status: number, fields: Record<string, string>, error: string | null = null) =>
    data<SettingsResult>(
      { section, fields, error, value: section === "password" ? undefined : form[section] },
      { status },
    );

  const schema: z.ZodType =
    section === "username" ? ChangeUsername : section === "email" ? ChangeEmail : ChangePasswordForm;
  const parsed = schema.safeParse(form);
  if (!parsed.success) return fail(422, fieldErrors(parsed.error));
  const body = parsed.data as Record<string, string>;
  if (section === "password") delete body.confirm;

  const res = await api.patch<{ token?: string }>(`/users/${section}`, body);
  if (!res.ok) {
    const field =
      section === "password" && res.status === 401 ? "password" : section === "password" ? "new_password" : section;
    return fail(
      res.status,
      { [field]: res.error.fields?.[field] ?? res.error.message },
      errorText(res.error, section as ErrorContext),
    );
  }
  // Redirect after a successful POST: the renewed session cookie (password change) reaches the
  // browser with or without JavaScript, and a reload cannot resubmit.
  return redirect(`/settings?saved=${section}`, { headers: cookieHeaders(res) });
}

function Row({
  title,
  value,
  section,
  edit,
  children,
}: {
  title: string;
  value: string;
  section: Section;
  edit: Section | null;
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
    </section>
  );
}

export default function Settings() {
  const { user, edit: editParam, saved } = useLoaderData<typeof loader>();
  const result = useActionData<SettingsResult>();
  const busy = useNavigation().state === "submitting";
  // A failed save keeps its section open; a successful one closes it.
  const edit = result ? result.section : editParam;
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
    <section className="page narrow">
      <h1>Settings</h1>
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
      <Row title="Password" value="••••••••" section="password" edit={edit}>
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="password" />
          {err("password")?.error && <p className="form-error">{err("password")?.error}</p>}
          <Field
            label="Current password"
            name="password"
            type="password"
            autoComplete="current-password"
            error={err("password")?.fields?.password}
          />
          <Field
            label="New password"
            name="new_password"
            type="password"
            autoComplete="new-password"
            hint="Password must be at least 6 characters long"
            error={err("password")?.fields?.new_password}
          />
          <Field
            label="Confirm password"
            name="confirm"
            type="password"
            autoComplete="new-password"
            error={err("password")?.fields?.confirm}
          />
          {actions}
        </Form>
      </Row>
      <Row title="Email" value={user.email ?? ""} section="email" edit={edit}>
        <Form method="post" noValidate>
          <input type="hidden" name="intent" value="email" />
          {err("email")?.error && <p className="form-error">{err("email")?.error}</p>}
          <Field
            label="Email"
            name="email"
            type="email"
            defaultValue={err("email")?.value ?? user.email}
            error={err("email")?.fields?.email}
            autoComplete="email"
          />
          {actions}
        </Form>
      </Row>
      <Toast message={saved && !result ? "Saved" : null} id={saved ?? undefined} />
    </section>
  );
}
