import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { NoteJson, NoteList as List } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";
import { NoteCard } from "./NoteCard";

/** The next page's URL: the same page with page+1 and the keyset cursor. */
function nextHref(location: { pathname: string; search: string }, list: List): string {
  const p = new URLSearchParams(location.search);
  p.set("page", String(list.paginator.page + 1));
  if (list.cursor) p.set("cursor", list.cursor);
  p.delete("dialog");
  return `${location.pathname}?${p}`;
}

/**
 * A list of notes. Without JS a real "More" link loads the next page; with JS an end sentinel
 * fetches it (through the same loader) when it scrolls into view, and appends.
 */
export function NoteList({
  list,
  viewer,
  empty = "No notes yet",
  loaderIndex = false,
}: {
  list: List;
  viewer: UserJson | null;
  empty?: string;
  loaderIndex?: boolean;
}) {
  const location = useLocation();
  const fetcher = useFetcher<{ list: List }>();
  const [extra, setExtra] = useState<NoteJson[]>([]);
  const [last, setLast] = useState<List>(list);
  const sentinel = useRef<HTMLDivElement>(null);

  // A new first page (navigation, filter change) starts over.
  useEffect(() => {
    setExtra([]);
    setLast(list);
  }, [list]);

  useEffect(() => {
    const got = fetcher.data?.list;
    if (got && got !== last && got.paginator.page === last.paginator.page + 1) {
      setExtra((e) => [...e, ...got.notes]);
      setLast(got);
    }
  }, [fetcher.data, last]);

  const href = nextHref(location, last);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || last.paginator.is_end) return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && fetcher.state === "idle") {
        fetcher.load(loaderIndex ? `${href}&index` : href);
      }
    });
    io.observe(el);
    return () => io.disconnect();
  }, [href, last, fetcher, loaderIndex]);

  const notes = [...list.notes, ...extra];
  if (!notes.length) return <p className="empty">{empty}</p>;
  return (
    <div className="note-list">
      {notes.map((n) => (
        <NoteCard key={`${n.kind}-${n.id}`} note={n} viewer={viewer} />
      ))}
      {!last.paginator.is_end && (
        <div ref={sentinel} className="more">
          <Link to={href} preventScrollReset rel="next">
            {fetcher.state === "loading" ? "Loading…" : "More"}
          </Link>
        </div>
      )}
    </div>
  );
}
