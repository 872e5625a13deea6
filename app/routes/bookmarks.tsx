import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { NoteList as List } from "../../worker/features/notes/notes.types";
import { NoteList } from "~/components/notes/NoteList";
import type { RepliesData } from "~/components/social/Replies";
import { ReplyCard } from "~/components/social/ReplyCard";
import { apiFor, result } from "~/lib/api.server";
import { listQuery } from "~/lib/notes.server";
import type { loader as rootLoader } from "~/root";
import { Tabs, tabLinks } from "~/components/Tabs";

export const meta: MetaFunction = () => [{ title: "Bookmarks · NoteX" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const tab = url.searchParams.get("t") === "rep" ? "rep" : "note";
  const res = await result(apiFor(request, context).v1.bookmarks.$get({ query: listQuery(url, { t: tab }) }));
  if (res.status === 401) throw redirect("/login");
  if (!res.ok) throw new Response("error", { status: 500 });
  return { tab, list: res.data };
}

export default function Bookmarks() {
  const { tab, list } = useLoaderData<typeof loader>();
  const viewer = useRouteLoaderData<typeof rootLoader>("root")?.user ?? null;
  return (
    <section className="page">
      <h1>Bookmarks</h1>
      <Tabs label="Bookmarks" current={tab} tabs={tabLinks("/bookmarks", "t", { note: "Notes", rep: "Replies" })} />
      {tab === "note" ? (
        <NoteList list={list as List} viewer={viewer} empty="No bookmarks yet" />
      ) : (list as RepliesData).replies.length ? (
        (list as RepliesData).replies.map((r) => <ReplyCard key={r.id} reply={r} viewer={viewer} />)
      ) : (
        <p className="empty">No bookmarks yet</p>
      )}
    </section>
  );
}
