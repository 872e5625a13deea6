import { readPage } from "~/lib/page.server";
import { AuthorizeQuery, consentRead } from "../../worker/features/mastodon/oauth.service";
import { invalid } from "../../worker/lib/errors";
import { FORM_TARGET_HEADER, formTarget } from "../../worker/lib/headers";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { CopyButton } from "~/components/CopyButton";
import { dialogHref } from "~/lib/scroll";
import { useViewer } from "~/lib/viewer";
import { LoginForm } from "~/components/AuthForms";
import { apiFor, result, signedIn } from "~/lib/api.server";

export const meta: MetaFunction = () => [{ title: "Authorise an app · NoteX" }];

/** The form may post on to the checked redirect URI only (the worker's CSP reads this header). */
export const headers: HeadersFunction = ({ parentHeaders, loaderHeaders }) => {
  const out = new Headers(parentHeaders);
  const target = loaderHeaders.get(FORM_TARGET_HEADER);
  if (target) out.set(FORM_TARGET_HEADER, target);
  return out;
};

// The OAuth parameters an app sends; they travel through the page and its form unchanged.
const PARAMS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
];

function paramsOf(source: URLSearchParams | FormData): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of PARAMS) {
    const v = source.get(k);
    if (typeof v === "string" && v !== "") out[k] = v;
  }
  return out;
}

/**
 * The consent page a Mastodon app opens (GET /oauth/authorize): it names the app and what it asks
 * for; a visitor signs in on the page first and comes back to it. An unknown app or a redirect URI
 * it did not register is shown as an error here, never redirected to.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const params = paramsOf(new URL(request.url).searchParams);
  const { viewer, reads } = await readPage(request, context, {
    request: (db) => {
      const parsed = AuthorizeQuery.safeParse(params);
      if (!parsed.success) throw invalid(parsed.error, 400);
      return consentRead(db, parsed.data);
    },
  });
  const asked = reads.request;
  // Only a request whose redirect URI the app registered, matched exactly, widens form-action.
  const target = asked.ok && !asked.data.out_of_band ? formTarget(asked.data.redirect_uri) : "";
  return data(
    {
      params,
      signedIn: signedIn(context),
      request: asked.ok ? asked.data : null,
      error: asked.ok ? null : asked.error.message,
      viewer,
    },
    target ? { headers: { [FORM_TARGET_HEADER]: target } } : undefined,
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const decision = form.get("decision") === "deny" ? "deny" : "approve";
  const res = await result(
    apiFor(request, context).v1.oauth.authorize.$post({ json: { ...paramsOf(form), decision } }),
  );
  if (!res.ok) {
    if (res.status === 401) throw redirect(`/oauth/authorize?${new URLSearchParams(paramsOf(form))}`);
    return data({ code: null, error: res.error.message }, { status: res.status });
  }
  if (res.data.redirect) throw redirect(res.data.redirect);
  // Out of band: the person copies the code into the app.
  return { code: res.data.code, error: null };
}

export default function Authorize() {
  const { params, signedIn, request, error } = useLoaderData<typeof loader>();
  const done = useActionData<typeof action>();
  const viewer = useViewer();
  const location = useLocation();
  if (done?.code)
    return (
      <section className="page narrow">
        <h1>Your authorisation code</h1>
        <p>Copy this code and paste it into the app:</p>
        <p>
          <code className="oauth-code">{done.code}</code>
        </p>
        <CopyButton label="Copy code" text={() => done.code ?? ""} className="btn primary" />
      </section>
    );
  if (!request)
    return (
      <section className="page narrow">
        <h1>This app cannot sign in</h1>
        <p className="notice warn" role="alert">
          {error}
        </p>
      </section>
    );
  return (
    <section className="page narrow">
      <h1>Authorise {request.app.name}</h1>
      <p>
        <strong>{request.app.name}</strong>
        {request.app.website ? ` (${request.app.website})` : ""} wants to use your NoteX account. It will be able to:
      </p>
      <ul>
        {request.scopes.map((s) => (
          <li key={s.scope}>
            {s.text} <small>({s.scope})</small>
          </li>
        ))}
      </ul>
      {done?.error && (
        <p className="notice warn" role="alert">
          {done.error}
        </p>
      )}
      {signedIn && viewer && (
        <p>
          You are approving as <strong>{viewer.fullname}</strong> (@{viewer.username}).{" "}
          <Link to={dialogHref(location, "logout")}>Not you?</Link>
        </p>
      )}
      {signedIn ? (
        <Form method="post" reloadDocument className="row start">
          {Object.entries(params).map(([k, v]) => (
            <input key={k} type="hidden" name={k} value={v} />
          ))}
          <button className="btn" type="submit" name="decision" value="deny">
            Deny
          </button>
          <button className="btn primary" type="submit" name="decision" value="approve">
            Authorise
          </button>
        </Form>
      ) : (
        <>
          <p>Log in to NoteX first; you will come back here to decide.</p>
          <LoginForm />
        </>
      )}
      <p>
        <small>
          {request.out_of_band
            ? "NoteX will show you a code to paste into the app."
            : `You will be sent back to ${request.redirect_uri}.`}{" "}
          You can revoke this in Settings → Authorised apps at any time.
        </small>
      </p>
    </section>
  );
}
