import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { NoteList } from "~/components/notes/NoteList";
import { apiErrorOf, listParams, must, readPage } from "~/lib/page.server";
import { errorText } from "~/lib/errors";
import { emptyList } from "~/lib/notes.server";
import { known, type Read } from "../../worker/db/reads";
import { feedRead } from "../../worker/features/feed/feed.service";
import { LISTS, listRead } from "../../worker/features/notes/read.service";
import type { NoteList as List } from "../../worker/features/notes/notes.types";
import { useViewer } from "~/lib/viewer";
import { keepAfterAnsweredActions } from "~/lib/revalidate";
import { Tabs, tabLinks } from "~/components/Tabs";
import { Welcome } from "~/components/Welcome";
import { type SuggestedPerson, suggestionsRead } from "../../worker/features/follows/suggestions.service";
import { type Showcase, showcaseRead } from "../../worker/features/showcase/showcase.service";

export const meta: MetaFunction = () => [{ title: "NoteX" }];

// Only a signed-in person's home shows these: their code loads with that page, not with a
// visitor's first look (the first-load JS budget of `/`). The server renders them in full.
const GetStarted = lazy(() => import("~/components/GetStarted").then((m) => ({ default: m.GetStarted })));
const ConfirmEmailBanner = lazy(() =>
  import("~/components/GetStarted").then((m) => ({ default: m.ConfirmEmailBanner })),
);
const PeopleToFollow = lazy(() => import("~/components/PeopleToFollow").then((m) => ({ default: m.PeopleToFollow })));

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const tab = url.searchParams.get("tab") === "following" ? "following" : "discover";
  const { viewer, reads } = await readPage(request, context, {
    list: (db, me): Read<List> =>
      tab === "discover"
        ? listRead(db, LISTS.discover, {}, listParams(url), me)
        : // Spec 1: visitors see "No notes yet" on Following.
          me
          ? feedRead(db, me, listParams(url))
          : known(emptyList()),
    // People to follow, for the first steps and an empty Following: in the same batch.
    people: (db, me): Read<SuggestedPerson[]> => (me ? suggestionsRead(db, me) : known([])),
    // A visitor's first page shows a real portfolio and a real thread: in the same batch.
    showcase: (db, me): Read<Showcase | null> => (me ? known(null) : showcaseRead(db)),
  });
  const host = url.host;
  const showcase = reads.showcase.ok ? reads.showcase.data : null;
  const people = reads.people.ok ? reads.people.data : [];
  // A failed Following (a bad cursor) is an error to show, not an empty feed (spec 8).
  if (tab === "following" && !reads.list.ok)
    return {
      viewer,
      tab,
      list: emptyList(),
      people,
      showcase,
      host,
      error: errorText(apiErrorOf(reads.list.error)),
    };
  return { viewer, tab, list: must(viewer, reads.list), people, showcase, host };
}

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const { tab, list, people, showcase, host } = data;
  const error = "error" in data ? data.error : null;
  const user = useViewer();
  // Where Settings lands after deleting the account (signed out by then).
  const [params] = useSearchParams();
  const deleted = !user && params.get("deleted") === "1";
  return (
    <section className="page">
      {deleted && (
        <p className="notice ok" role="status">
          Your account has been deleted and you are signed out everywhere. Thank you for having been part of NoteX.
        </p>
      )}
      {user ? <h1 className="sr-only">Home</h1> : <Welcome showcase={showcase} host={host} />}
      {user && (
        <Suspense fallback={null}>
          <ConfirmEmailBanner user={user} />
          <GetStarted user={user} people={people} />
        </Suspense>
      )}
      <Tabs label="Feeds" current={tab} tabs={tabLinks("/", "tab", { discover: "Discover", following: "Following" })} />
      {user && (
        <Link to="?dialog=note" className="composer-prompt" preventScrollReset>
          <span>Take a note...</span>
          <span className="btn primary small">New note</span>
        </Link>
      )}
      {tab === "following" && user && list.notes.length === 0 && user.stats.following >= 3 && (
        <Suspense fallback={null}>
          <PeopleToFollow people={people} />
        </Suspense>
      )}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : (
        <NoteList
          list={list}
          viewer={user}
          loaderIndex
          empty={
            tab === "following" && user
              ? "No notes yet. Follow people and their notes show here: find them on Discover."
              : undefined
          }
        />
      )}
    </section>
  );
}

export const shouldRevalidate = keepAfterAnsweredActions;
