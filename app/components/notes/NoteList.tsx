import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { NoteList as List } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";
import { afterPage, autoLoads, type Loaded } from "~/lib/autoload";
import { markOld } from "~/lib/counts";
import { booted } from "~/lib/hydrated";
import { pageOf } from "~/lib/scroll";
import { NoteCard } from "./NoteCard";
import { MoreLink } from "../MoreLink";

/** The next page's URL: the same page with page+1 and the keyset cursor. */
function nextHref(location: { pathname: string; search: string }, list: List): string {
  const p = new URLSearchParams(pageOf(location).split("?")[1] ?? "");
  p.set("page", String(list.paginator.page + 1));
  if (list.cursor) p.set("cursor", list.cursor);
  return `${location.pathname}?${p}`;
}

// Kept per history entry, so Back and Forward find the list as long as it was (issue 21).
const STORE = "notex:list:";
function readLoaded(key: string, base: string): Loaded | null {
  try {
    const l = JSON.parse(sessionStorage.getItem(STORE + key) ?? "null") as Loaded | null;
    if (l?.base !== base) return null;
    // Their counters are as old as the visit: anything learned since shows instead.
    for (const n of l.extra) {
      markOld(n);
      if (n.renote) markOld(n.renote);
    }
    return l;
  } catch {
    return null;
  }
}
function writeLoaded(key: string, l: Loaded) {
  try {
    sessionStorage.setItem(STORE + key, JSON.stringify(l));
  } catch {
    // Full: the oldest lists go first.
    for (const k of Object.keys(sessionStorage)) if (k.startsWith(STORE)) sessionStorage.removeItem(k);
  }
}

/**
 * A list of notes. Without JS a real "More" link loads the next page; with JS an end sentinel
 * fetches it (through the same loader) when it scrolls into view, and appends. Loaded pages stay
 * through revalidations (a like), overlays (a dialog) and Back/Forward; a new page URL starts over.
 */
/** Most list pages' loaders answer their list as `list`. */
const listOfAnswer = (answer: unknown) => (answer as { list?: List }).list;

export function NoteList({
  list,
  viewer,
  empty = "No notes yet",
  loaderIndex = false,
  listIn = listOfAnswer,
}: {
  list: List;
  viewer: UserJson | null;
  empty?: string;
  loaderIndex?: boolean;
  /** Where the page's loader answer keeps this list (the next page is that loader's answer too). */
  listIn?: (data: unknown) => List | undefined;
}) {
  const location = useLocation();
  const fetcher = useFetcher();
  const base = pageOf(location);
  const fresh = (): Loaded => (booted() && readLoaded(location.key, base)) || { base, extra: [], last: null };
  const [state, setState] = useState(fresh);
  let loaded = state;
  if (state.base !== base) {
    // Derived during render, so the restored pages are there before the scroll position is.
    loaded = fresh();
    setState(loaded);
  }
  const last = loaded.extra.length && loaded.last ? loaded.last : list;
  const sentinel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const got = fetcher.data ? listIn(fetcher.data) : undefined;
    if (got && got !== last && got.paginator.page === last.paginator.page + 1) {
      setState((s) => afterPage(s, got));
    }
  }, [fetcher.data, last, listIn]);

  useEffect(() => {
    if (loaded.extra.length) writeLoaded(location.key, loaded);
  }, [loaded, location.key]);

  const href = nextHref(location, last);
  const auto = autoLoads(loaded);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || last.paginator.is_end || !auto) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && fetcher.state === "idle") {
        fetcher.load(loaderIndex ? `${href}&index` : href);
      }
    });
    io.observe(el);
    return () => io.disconnect();
  }, [href, last, fetcher, loaderIndex, auto]);

  // A revalidated first page may now hold notes a loaded page also has: each is shown once.
  const seen = new Set<string>();
  const notes = [...list.notes, ...loaded.extra].filter((n) => {
    const k = `${n.kind}-${n.id}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  // A following feed's page may be short, even empty, and still go on (its walk reads a bounded
  // window of notes a request): only the list's end says there is nothing.
  if (!notes.length && last.paginator.is_end) return <p className="empty">{empty}</p>;
  return (
    <div className="note-list">
      {notes.map((n, i) => (
        <NoteCard key={`${n.kind}-${n.id}`} note={n} viewer={viewer} lead={i === 0} />
      ))}
      {!last.paginator.is_end && (
        <MoreLink
          ref={sentinel}
          to={href}
          preventScrollReset
          onClick={(e) => {
            if (auto) return;
            // Paused after empty pages: a click goes on in place, and scrolling loads again.
            e.preventDefault();
            setState((s) => ({ ...s, emptyRun: 0 }));
          }}
        >
          {fetcher.state === "loading" ? "Loading…" : "More"}
        </MoreLink>
      )}
    </div>
  );
}
