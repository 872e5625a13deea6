import { withViewer } from "~/lib/page.server";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ResetForm } from "../../worker/features/accounts/accounts.schema";
import { fieldErrors } from "../../worker/lib/errors";
import { NewPasswordFields, FormError, PASSWORD_HINT } from "~/components/Field";
import { apiFor, result } from "~/lib/api.server";
import { errorText } from "~/lib/errors";

export const meta: MetaFunction = () => [{ title: "Choose a new password · NoteX" }];

interface ResetResult {
  error?: string | null;
  fields?: Record<string, string>;
  /** The link itself is spent, expired or forged: ask for a new one. */
  badLink?: boolean;
}

function ownData({ request }: LoaderFunctionArgs) {
  return { token: new URL(request.url).searchParams.get("token") ?? "" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = Object.fromEntries(await request.formData()) as Record<string, string>;
  const parsed = ResetForm.safeParse(form);
  if (!parsed.success) return data<ResetResult>({ fields: fieldErrors(parsed.error) }, { status: 422 });
  const { token, password } = parsed.data;
  const res = await result(apiFor(request, context).v1.password.reset.$post({ json: { token, password } }));
  if (res.ok) return redirect("/login?reset=1");
  const badLink = res.error.code === "token_invalid" || res.error.code === "token_expired";
  return data<ResetResult>(
    {
      badLink,
      error: badLink || res.status === 422 ? res.error.message : errorText(res.error),
      fields: badLink ? undefined : res.error.fields,
    },
    { status: res.status },
  );
}

export default function Reset() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<ResetResult>();
  const busy = useNavigation().state === "submitting";
  return (
    <section className="page narrow account-page">
      <h1>Choose a new password</h1>
      {result?.badLink ? (
        <div className="notice warn" role="alert">
          <p>{result.error}</p>
          <p>
            <Link to="/forgot">Send me a new link</Link>
          </p>
        </div>
      ) : (
        <p className="muted">After this, every device signed in to your account is signed out.</p>
      )}
      <Form method="post" noValidate>
        <input type="hidden" name="token" value={token} />
        <FormError error={result?.error && !result.badLink ? result.error : undefined} />
        <NewPasswordFields label="New password" hint={PASSWORD_HINT} errors={result?.fields} />
        <div className="row">
          <button className="btn primary" type="submit" disabled={busy}>
            Set password
          </button>
        </div>
      </Form>
    </section>
  );
}

export const loader = (args: LoaderFunctionArgs) => withViewer(args, () => ownData(args));
