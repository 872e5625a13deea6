import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { NoteList } from "~/components/notes/NoteList";
import { apiFor, load, result, signedIn } from "~/lib/api.server";
import { errorText } from "~/lib/errors";
import { emptyList, listQuery } from "~/lib/notes.server";
import type { loader as rootLoader } from "~/root";
import { keepAfterAnsweredActions } from "~/lib/revalidate";
import { Tabs, tabLinks } from "~/components/Tabs";
import { Welcome } from "~/components/Welcome";
import { ConfirmEmailBanner, GetStarted } from "~/components/GetStarted";

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
  // Where Settings lands after deleting the account (signed out by then).
  const [params] = useSearchParams();
  const deleted = !root?.user && params.get("deleted") === "1";
  return (
    <section className="page">
      {deleted && (
        <p className="notice ok" role="status">
          Your account has been deleted and you are signed out everywhere. Thank you for having been part of NoteX.
        </p>
      )}
      {root?.user ? <h1 className="sr-only">Home</h1> : <Welcome />}
      {root?.user && <ConfirmEmailBanner user={root.user} />}
      {root?.user && <GetStarted user={root.user} />}
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
        <NoteList
          list={list}
          viewer={root?.user ?? null}
          loaderIndex
          empty={
            tab === "following" && root?.user
              ? "No notes yet. Follow people and their notes show here: find them on Discover."
              : undefined
          }
        />
      )}
    </section>
  );
}

export const shouldRevalidate = keepAfterAnsweredActions;
