import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { apiFor, cookieHeaders, result } from "~/lib/api.server";

// Spec 2 Google callback, outside the main layout. The first visit shows the wait message and
// moves on by itself (meta refresh, so it works without JavaScript); the second completes the
// sign-in on the server and redirects home, or shows the spec's failure dialog.
export const handle = { bare: true };

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: "Logging in with Google · NoteX" },
  ...(d && "next" in d ? [{ httpEquiv: "refresh", content: `0;url=${d.next}` }] : []),
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const denied = url.searchParams.has("error") || !url.searchParams.get("code");
  if (!url.searchParams.has("go") && !denied) {
    url.searchParams.set("go", "1");
    return { next: `${url.pathname}${url.search}` };
  }
  const query = { code: url.searchParams.get("code") ?? "", state: url.searchParams.get("state") ?? "" };
  // Also on denial: the API clears the one-use state cookie either way.
  const res = await result(apiFor(request, context).v1.login.google.$get({ query }));
  if (res.ok) throw redirect("/", { headers: cookieHeaders(res) });
  return data({ failed: true as const }, { status: res.status, headers: cookieHeaders(res) });
}

export default function GoogleCallback() {
  const d = useLoaderData<typeof loader>();
  if ("next" in d) {
    return (
      <main className="callback">
        <p role="status">Logging in with Google, please wait ...</p>
      </main>
    );
  }
  return (
    <main className="callback">
      <div className="dialog" role="alertdialog" aria-modal="true" aria-labelledby="google-failed">
        <p id="google-failed">Something went wrong, please try again!</p>
        <div className="row">
          <Link className="btn primary" to="/login" reloadDocument>
            Close
          </Link>
        </div>
      </div>
    </main>
  );
}
