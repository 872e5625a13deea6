import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { NoteList } from "~/components/notes/NoteList";
import { apiFor, load, result, signedIn } from "~/lib/api.server";
import { errorText } from "~/lib/errors";
import { emptyList, listQuery } from "~/lib/notes.server";
import type { loader as rootLoader } from "~/root";
import { keepAfterAnsweredActions } from "~/lib/revalidate";
import { Tabs, tabLinks } from "~/components/Tabs";
import { Welcome } from "~/components/Welcome";

export const meta: MetaFunction = () => [{ title: "NoteX" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const tab = url.searchParams.get("tab") === "following" ? "following" : "discover";
  const api = apiFor(request, context);
  // Spec 1: visitors see "No notes yet" on Following.
  if (tab === "following" && !signedIn(context)) return { tab, list: emptyList() };
  if (tab === "following") {
    const res = await result(api.v1.feeds.$get({ query: listQuery(url) }));
    // A failed call (a 429, a bad cursor) is an error to show, not an empty feed (spec 8).
    return res.ok ? { tab, list: res.data } : { tab, list: emptyList(), error: errorText(res.error) };
  }
  return { tab, list: await load(api.v1.discover.$get({ query: listQuery(url) })) };
}

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const { tab, list } = data;
  const error = "error" in data ? data.error : null;
  const root = useRouteLoaderData<typeof rootLoader>("root");
  return (
    <section className="page">
      {root?.user ? <h1 className="sr-only">Home</h1> : <Welcome />}
      <Tabs label="Feeds" current={tab} tabs={tabLinks("/", "tab", { discover: "Discover", following: "Following" })} />
      {root?.user && (
        <Link to="?dialog=note" className="composer-prompt" preventScrollReset>
          <span>Take a note...</span>
          <span className="btn primary small">NoteX</span>
        </Link>
      )}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : (
        <NoteList list={list} viewer={root?.user ?? null} loaderIndex />
      )}
    </section>
  );
}

export const shouldRevalidate = keepAfterAnsweredActions;
