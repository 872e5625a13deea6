import { withViewer } from "~/lib/page.server";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { apiFor, result } from "~/lib/api.server";

export const meta: MetaFunction = () => [{ title: "Confirm your email · NoteX" }];

const RESULTS = {
  confirmed: { title: "Your email is confirmed", text: "Thank you. This address is now the one for your account." },
  expired: {
    title: "This link has expired",
    text: "Confirmation links work for 24 hours. Ask for a new one in Settings.",
  },
  invalid: {
    title: "This link does not work",
    text: "It was already used or is not complete. If your email is not confirmed yet, ask for a new link in Settings.",
  },
  taken: { title: "This address is already in use", text: "Another account confirmed it first." },
} as const;
type Result = keyof typeof RESULTS;

/**
 * Opening the emailed link confirms the address, then redirects to a page without the token, so
 * the token stays out of history, caches and Referer headers.
 */
async function ownData({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  if (token !== null) {
    const res = await result(apiFor(request, context).v1.email.verify.$post({ json: { token } }));
    const outcome: Result = res.ok
      ? "confirmed"
      : res.error.code === "token_expired"
        ? "expired"
        : res.error.code === "email_taken"
          ? "taken"
          : "invalid";
    throw redirect(`/confirm?result=${outcome}`);
  }
  const shown = url.searchParams.get("result");
  return { result: (shown && shown in RESULTS ? shown : "invalid") as Result };
}

export default function Confirm() {
  const { result } = useLoaderData<typeof loader>();
  const r = RESULTS[result];
  return (
    <section className="page narrow account-page">
      <div className={`notice ${result === "confirmed" ? "ok" : "warn"}`} role="status">
        <h1>{r.title}</h1>
        <p>{r.text}</p>
      </div>
      <p className="row start">
        <Link to="/settings" className="btn">
          Settings
        </Link>
        <Link to="/" className="btn primary">
          Go home
        </Link>
      </p>
    </section>
  );
}

export const loader = (args: LoaderFunctionArgs) => withViewer(args, () => ownData(args));
