import { must, type PageRead, readPage, viewerIdOf } from "~/lib/page.server";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useViewer } from "~/lib/viewer";
import { isRemoteQuery } from "../../worker/features/federation/handles";
import { FoundPerson } from "~/components/profile/FoundPerson";
import type {
  FolderHit,
  NoteHit,
  ReplyHit,
  SearchPage,
  SearchResult,
} from "../../worker/features/search/search.service";
import type { UserHit } from "../../worker/features/search/search.people";
import { apiFor, result } from "~/lib/api.server";
import { known } from "../../worker/db/reads";
import type { DB } from "../../worker/env";
import { searchRead } from "../../worker/features/search/search.service";
import { KINDS, type SearchKind, SearchQuery } from "../../worker/features/search/search.schema";
import { tagsRead } from "../../worker/features/search/search.tags";
import { userRead } from "../../worker/features/users/users.read";
import { searchAllowed } from "../../worker/lib/ratelimit";
import { PAGE_SIZE } from "../../worker/lib/paging";
import { keepAfterAnsweredActions } from "~/lib/revalidate";
import { FolderHits, NoteHits, PersonHits, ReplyHits } from "~/components/search/SearchHits";
import { SearchField } from "~/components/search/SearchField";
import { SearchTop, TOP_SHOWN, type TopResults } from "~/components/search/SearchTop";
import { MoreLink } from "../components/MoreLink";

const TABS = [
  { t: "top", label: "Top" },
  { t: "users", label: "People" },
  { t: "notes", label: "Notes" },
  { t: "replies", label: "Replies" },
  { t: "folders", label: "Folders" },
] as const;
type Tab = (typeof TABS)[number]["t"];

type Results = SearchPage & { notes?: NoteHit[]; replies?: ReplyHit[]; folders?: FolderHit[]; users?: UserHit[] };
type Counts = Record<SearchKind, string>;

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.q ? `${data.q} · Search · NoteX` : "Search · NoteX" },
  // Result pages are endless and personal to the query: not for search engines.
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 500);
  const raw = url.searchParams.get("t");
  const t: Tab = TABS.some((x) => x.t === raw) ? (raw as Tab) : "top";
  const blank = { q, t, results: null, top: null, counts: null, found: null, limited: false };
  if (!q.trim()) return { ...blank, viewer: (await readPage(request, context, {})).viewer };
  const query = SearchQuery.parse({
    q,
    t: t === "top" ? "notes" : t,
    page: t === "top" ? undefined : (url.searchParams.get("page") ?? undefined),
    cursor: t === "top" ? undefined : (url.searchParams.get("cursor") ?? undefined),
  });
  // The first page of a search reads every kind's first page in the same batch: the Top view shows
  // a few of each and every tab says how many it holds; a later page reads its own kind alone.
  const first = query.page === 1 && !query.cursor;
  const kinds = KINDS.filter((k) => first || k === query.t);
  // A handle (@name@host) or a profile URL names one person, shown above the ordinary search: one
  // known here by handle is read with it; anyone else is looked up on their server (below).
  const handle = q.trim();
  const byHandle = isRemoteQuery(handle) && !/^https?:/i.test(handle);
  const allowed = await searchAllowed(context.cloudflare.env, viewerIdOf(context), request.headers);
  const kindReads = Object.fromEntries(
    kinds.map((k) => [
      k,
      (db: DB, me: number | null) => (allowed ? searchRead(db, { ...query, t: k }, me) : known(null)),
    ]),
  ) as Record<SearchKind, PageRead<(SearchResult & SearchPage) | null>>;
  const { viewer, reads } = await readPage(request, context, {
    ...kindReads,
    tags: (db) => (allowed && t === "top" ? tagsRead(db, q) : known([])),
    person: (db, me) => (allowed && byHandle ? userRead(db, { username: handle.replace(/^@/, "") }, me) : known(null)),
  });
  // Spec 8's 429, said on the page: the search waits for the budget (worker/lib/ratelimit.ts).
  if (!allowed) return data({ ...blank, viewer, limited: true }, { status: 429 });
  const pages = Object.fromEntries(kinds.map((k) => [k, must(viewer, reads[k]) as Results])) as Record<
    SearchKind,
    Results | undefined
  >;
  const person =
    reads.person.ok && reads.person.data
      ? { ok: true as const, data: reads.person.data }
      : isRemoteQuery(handle)
        ? await result(apiFor(request, context).v1.users[":username"].$get({ param: { username: handle } }))
        : null;
  const found = !person
    ? null
    : person.ok
      ? { user: person.data, error: null }
      : { user: null, error: notFoundText(handle, person.status) };
  // The person found by handle is shown once, above the list.
  const people = pages.users;
  if (found?.user && people?.users) people.users = people.users.filter((u) => u.id !== found.user.id);
  const counts = first ? countsOf(pages) : null;
  const top: TopResults | null =
    t === "top"
      ? {
          users: (people?.users ?? []).slice(0, TOP_SHOWN.users),
          notes: (pages.notes?.notes ?? []).slice(0, TOP_SHOWN.notes),
          tags: reads.tags.ok ? reads.tags.data : [],
          folders: (pages.folders?.folders ?? []).slice(0, TOP_SHOWN.folders),
        }
      : null;
  return { q, t, results: t === "top" ? null : (pages[t] ?? null), top, counts, found, limited: false, viewer };
}

/** Each tab's count from its first page: exact on a last page, "20+" when more follow. */
function countsOf(pages: Record<SearchKind, Results | undefined>): Counts {
  const of = (k: SearchKind) => {
    const p = pages[k];
    const n = (p?.[k] as unknown[] | undefined)?.length ?? 0;
    return p && !p.paginator.is_end ? `${PAGE_SIZE}+` : String(n);
  };
  return { users: of("users"), notes: of("notes"), replies: of("replies"), folders: of("folders") };
}

const TOO_MANY = "Too many searches. Please wait a minute and try again.";

/** Why a handle found no one, said plainly (a 404 covers an unknown name, host or an unreachable server). */
function notFoundText(handle: string, status: number) {
  if (status === 429) return TOO_MANY;
  const at = handle.replace(/^@/, "");
  return /^https?:/i.test(at)
    ? `No account was found at ${at}. Check the address; its server may also be unreachable.`
    : `No account @${at} was found. Check the handle; its server may also be unreachable.`;
}

const hrefOf = (q: string, t: Tab, extra: Record<string, string> = {}) =>
  `/search?${new URLSearchParams({ q, ...(t === "top" ? {} : { t }), ...extra })}`;

function Hits({ t, results }: { t: SearchKind; results: Results }) {
  if (t === "users") return <PersonHits users={results.users ?? []} />;
  if (t === "folders") return <FolderHits folders={results.folders ?? []} />;
  if (t === "replies") return <ReplyHits replies={results.replies ?? []} />;
  return <NoteHits notes={results.notes ?? []} />;
}

export default function Search() {
  const { q, t, results, top, counts, found, limited } = useLoaderData<typeof loader>();
  const viewer = useViewer();
  const list = t === "top" ? [] : (results?.[t] ?? []);
  const nothing =
    t === "top"
      ? !!top && !top.users.length && !top.notes.length && !top.tags.length && !top.folders.length
      : !list.length;
  return (
    <section className="page search-page">
      <h1>Search</h1>
      {/* A plain GET form: works without JavaScript, and the URL is the search. */}
      <Form method="get" action="/search" role="search" className="search-form">
        {t !== "top" && <input type="hidden" name="t" value={t} />}
        <label htmlFor="search-q" className="sr-only">
          Search NoteX
        </label>
        <SearchField key={q} id="search-q" defaultValue={q} placeholder="Search people, notes, tags and folders" />
        <button type="submit" className="btn primary">
          Search
        </button>
      </Form>
      <nav className="tabs search-tabs" aria-label="What to search">
        {TABS.map((x) => (
          <Link key={x.t} to={hrefOf(q, x.t)} aria-current={x.t === t ? "page" : undefined}>
            {x.label}
            {counts && x.t !== "top" && (
              <>
                {" "}
                <span className="tab-count">{counts[x.t]}</span>
              </>
            )}
          </Link>
        ))}
      </nav>
      {found?.user && <FoundPerson user={found.user} viewer={viewer} />}
      {found?.error && (
        <p className="notice" role="status">
          {found.error}
        </p>
      )}
      {limited && (
        <p className="notice" role="alert">
          {TOO_MANY}
        </p>
      )}
      {!results && !top ? (
        !limited && (
          <p className="empty">
            Find people, notes, replies, tags and x-folders by what they say. A full handle such as
            @name@mastodon.social finds someone on another server.
          </p>
        )
      ) : nothing ? (
        found?.user ? null : (
          <p className="empty">Nothing matches “{q}”.</p>
        )
      ) : top ? (
        <SearchTop top={top} more={(k) => (counts && counts[k] !== String(top[k].length) ? hrefOf(q, k) : undefined)} />
      ) : (
        results &&
        t !== "top" && (
          <>
            <ul className="hits">
              <Hits t={t} results={results} />
            </ul>
            {!results.paginator.is_end && results.cursor && (
              <MoreLink to={hrefOf(q, t, { page: String(results.paginator.page + 1), cursor: results.cursor })} />
            )}
          </>
        )
      )}
    </section>
  );
}

export const shouldRevalidate = keepAfterAnsweredActions;
