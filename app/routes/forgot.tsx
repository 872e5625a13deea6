import { viewerOnly } from "~/lib/page.server";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { ForgotInput } from "../../worker/features/accounts/accounts.schema";
import { fieldErrors } from "../../worker/lib/errors";
import { EmailField, FormError } from "~/components/Field";
import { apiFor, result } from "~/lib/api.server";
import { errorText } from "~/lib/errors";

export const meta: MetaFunction = () => [{ title: "Forgot password · NoteX" }];

interface ForgotResult {
  sent?: string;
  error?: string | null;
  fields?: Record<string, string>;
  email?: string;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const email = String(form.get("email") ?? "");
  const parsed = ForgotInput.safeParse({ email });
  if (!parsed.success) return data<ForgotResult>({ fields: fieldErrors(parsed.error), email }, { status: 422 });
  const res = await result(apiFor(request, context).v1.password.forgot.$post({ json: parsed.data }));
  if (!res.ok)
    return data<ForgotResult>({ error: errorText(res.error), fields: res.error.fields, email }, { status: res.status });
  return { sent: res.data.message, email: parsed.data.email } satisfies ForgotResult;
}

export default function Forgot() {
  const result = useActionData<ForgotResult>();
  const busy = useNavigation().state === "submitting";
  return (
    <section className="page narrow account-page">
      <h1>Forgot your password?</h1>
      {result?.sent ? (
        <div className="notice" role="status">
          <p>{result.sent}</p>
          <p className="muted">
            The link works once and expires in 1 hour. Check your spam folder if it does not arrive.
          </p>
        </div>
      ) : (
        <p className="muted">
          Enter the email address of your account and we will send you a link to choose a new password.
        </p>
      )}
      <Form method="post" noValidate>
        <FormError error={result?.error ? result.error : undefined} />
        <EmailField defaultValue={result?.email} error={result?.fields?.email} />
        <div className="row">
          <Link to="/login" className="btn">
            Back to log in
          </Link>
          <button className="btn primary" type="submit" disabled={busy}>
            {result?.sent ? "Send again" : "Send link"}
          </button>
        </div>
      </Form>
    </section>
  );
}

// Nothing of its own to read: the person's record only (the sidebar).
export const loader = viewerOnly;
