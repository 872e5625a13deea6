import { must, readPage, viewerIdOf } from "~/lib/page.server";
import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { useViewer } from "~/lib/viewer";
import { isRemoteQuery } from "../../worker/features/federation/handles";
import { FoundPerson } from "~/components/profile/FoundPerson";
import { profilePath } from "~/lib/url";
import type { FolderHit, NoteHit, ReplyHit, SearchPage, Snippet } from "../../worker/features/search/search.service";
import type { UserHit } from "../../worker/features/search/search.people";
import { Avatar } from "~/components/Avatar";
import { apiFor, result } from "~/lib/api.server";
import { known } from "../../worker/db/reads";
import { searchRead } from "../../worker/features/search/search.service";
import { SearchQuery } from "../../worker/features/search/search.schema";
import { userRead } from "../../worker/features/users/users.read";
import { searchAllowed } from "../../worker/lib/ratelimit";
import { relativeTime } from "~/lib/time";
import { keepAfterAnsweredActions } from "~/lib/revalidate";

const TABS = [
  { t: "notes", label: "Notes" },
  { t: "replies", label: "Replies" },
  { t: "users", label: "People" },
  { t: "folders", label: "Folders" },
] as const;
type Tab = (typeof TABS)[number]["t"];

type Results = SearchPage & { notes?: NoteHit[]; replies?: ReplyHit[]; folders?: FolderHit[]; users?: UserHit[] };

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data?.q ? `${data.q} · Search · NoteX` : "Search · NoteX" },
  // Result pages are endless and personal to the query: not for search engines.
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 500);
  const raw = url.searchParams.get("t");
  const t: Tab = TABS.some((x) => x.t === raw) ? (raw as Tab) : "notes";
  const blank = { q, t, results: null, found: null, limited: false };
  if (!q.trim()) return { ...blank, viewer: (await readPage(request, context, {})).viewer };
  const query = SearchQuery.parse({
    q,
    t,
    page: url.searchParams.get("page") ?? undefined,
    cursor: url.searchParams.get("cursor") ?? undefined,
  });
  // A handle (@name@host) or a profile URL names one person, shown above the ordinary search: one
  // known here by handle is read with it; anyone else is looked up on their server (below).
  const handle = q.trim();
  const byHandle = isRemoteQuery(handle) && !/^https?:/i.test(handle);
  const allowed = await searchAllowed(context.cloudflare.env, viewerIdOf(context), request.headers);
  const { viewer, reads } = await readPage(request, context, {
    results: (db, me) => (allowed ? searchRead(db, query, me) : known(null)),
    person: (db, me) => (allowed && byHandle ? userRead(db, { username: handle.replace(/^@/, "") }, me) : known(null)),
  });
  // Spec 8's 429, said on the page: the search waits for the budget (worker/lib/ratelimit.ts).
  if (!allowed) return data({ ...blank, viewer, limited: true }, { status: 429 });
  const results = must(viewer, reads.results) as Results;
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
  if (found?.user && results.users) results.users = results.users.filter((u) => u.id !== found.user.id);
  return { q, t, results, found, limited: false, viewer };
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

/** Matched runs (odd indexes) as <mark>; every run is text, never markup. */
function Highlighted({ runs }: { runs: Snippet }) {
  return <>{runs.map((run, i) => (i % 2 ? <mark key={i}>{run}</mark> : run))}</>;
}

function Hit({
  href,
  user,
  at,
  children,
}: {
  href: string;
  user: { username: string; fullname: string; avatar: string };
  at?: number;
  children: React.ReactNode;
}) {
  return (
    <li className="hit">
      <Avatar name={user.fullname} src={user.avatar} size={40} />
      <div>
        <p className="hit-head">
          <strong>{user.fullname}</strong> <small>@{user.username}</small>
          {at ? (
            <small suppressHydrationWarning>
              {" · "}
              {relativeTime(at)}
            </small>
          ) : null}
        </p>
        <Link to={href} className="hit-body">
          {children}
        </Link>
      </div>
    </li>
  );
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function Hits({ t, results }: { t: Tab; results: Results }) {
  if (t === "users")
    return (results.users ?? []).map((u) => (
      <Hit key={u.id} href={profilePath(u.username)} user={u}>
        {u.descr || `@${u.username}`}
      </Hit>
    ));
  if (t === "folders")
    return (results.folders ?? []).map((f) => (
      <Hit key={f.id} href={`/${f.user.username}/x/${f.slug}`} user={f.user}>
        <strong className="hit-title">
          <Highlighted runs={f.name_hl} />
        </strong>{" "}
        <small className="muted">{f.type}</small>
        {f.descr && (
          <span className="hit-text">
            <Highlighted runs={f.snippet} />
          </span>
        )}
      </Hit>
    ));
  if (t === "replies")
    return (results.replies ?? []).map((r) => (
      <Hit key={r.id} href={`/${r.user.username}/rep/${r.id}`} user={r.user} at={r.created_at}>
        <span className="hit-text">
          <Highlighted runs={r.snippet} />
        </span>
      </Hit>
    ));
  return (results.notes ?? []).map((n) => (
    <Hit key={n.id} href={`/${n.user.username}/note/${n.id}`} user={n.user} at={n.created_at}>
      <span className="hit-text">
        <Highlighted runs={n.snippet} />
      </span>
      <small className="muted hit-meta">
        {[n.label, count(n.likenum, "like", "likes"), count(n.repnum, "reply", "replies")].filter(Boolean).join(" · ")}
      </small>
    </Hit>
  ));
}

const hrefOf = (q: string, t: Tab, extra: Record<string, string> = {}) =>
  `/search?${new URLSearchParams({ q, t, ...extra })}`;

export default function Search() {
  const { q, t, results, found, limited } = useLoaderData<typeof loader>();
  const viewer = useViewer();
  const list = results?.[t] ?? [];
  return (
    <section className="page search-page">
      <h1>Search</h1>
      {/* A plain GET form: works without JavaScript, and the URL is the search. */}
      <Form method="get" action="/search" role="search" className="search-form">
        <input type="hidden" name="t" value={t} />
        <label htmlFor="search-q" className="sr-only">
          Search NoteX
        </label>
        <input
          id="search-q"
          type="search"
          name="q"
          defaultValue={q}
          key={q}
          placeholder="Search notes, people and folders"
          maxLength={500}
          autoComplete="off"
          enterKeyHint="search"
        />
        <button type="submit" className="btn primary">
          Search
        </button>
      </Form>
      <nav className="tabs search-tabs" aria-label="What to search">
        {TABS.map((x) => (
          <Link key={x.t} to={hrefOf(q, x.t)} aria-current={x.t === t ? "page" : undefined}>
            {x.label}
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
      {!results ? (
        !limited && <p className="empty">Find notes, replies, people and x-folders by what they say.</p>
      ) : list.length === 0 ? (
        found?.user ? null : (
          <p className="empty">Nothing matches “{q}”.</p>
        )
      ) : (
        <>
          <ul className="hits">
            <Hits t={t} results={results} />
          </ul>
          {!results.paginator.is_end && results.cursor && (
            <div className="more">
              <Link to={hrefOf(q, t, { page: String(results.paginator.page + 1), cursor: results.cursor })} rel="next">
                More
              </Link>
            </div>
          )}
        </>
      )}
    </section>
  );
}

export const shouldRevalidate = keepAfterAnsweredActions;
