import type { MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useLocation } from "@remix-run/react";
import { RssLink } from "../RssLink";
import { feedLink } from "~/lib/meta";
import type { NoteList as List } from "../../../worker/features/notes/notes.types";
import { useViewer } from "~/lib/viewer";
import { NoteList } from "./NoteList";

/** A titled page of notes (tag and x-label pages). */
export function ListPage() {
  const { title, list } = useLoaderData<{ title: string; list: List }>();
  const user = useViewer();
  // Each list page's feed is its own address plus /rss (listPageMeta).
  const { pathname } = useLocation();
  return (
    <section className="page">
      <div className="page-title">
        <h1>{title}</h1>
        <RssLink href={`${pathname}/rss`} label={`RSS feed of ${title}`} />
      </div>
      <NoteList list={list} viewer={user} />
    </section>
  );
}

/** A list page's title and the link to its feed, /{section}/{the page's name}/rss (`param` names it). */
export const listPageMeta =
  (section: string, param: string): MetaFunction<() => Promise<{ title: string }>> =>
  ({ data, params }) => [
    { title: data ? `${data.title} · NoteX` : "NoteX" },
    ...(data ? [feedLink(`/${section}/${encodeURIComponent(params[param] ?? "")}/rss`, `${data.title} · NoteX`)] : []),
  ];
