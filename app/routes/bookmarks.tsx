import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import type { NoteList as List } from "../../worker/features/notes/notes.types";
import { NoteList } from "~/components/notes/NoteList";
import type { RepliesData } from "~/components/social/Replies";
import { ReplyCard } from "~/components/social/ReplyCard";
import { listParams, must, readPage } from "~/lib/page.server";
import { known } from "../../worker/db/reads";
import { bookmarksRead } from "../../worker/features/bookmarks/bookmarks.service";
import { useViewer } from "~/lib/viewer";
import { Tabs, tabLinks } from "~/components/Tabs";

export const meta: MetaFunction = () => [{ title: "Bookmarks · NoteX" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const tab = url.searchParams.get("t") === "rep" ? "rep" : "note";
  const { viewer, reads } = await readPage(request, context, {
    list: (db, me) => (me ? bookmarksRead(db, me, { ...listParams(url), t: tab }) : known(null)),
  });
  const list = must(viewer, reads.list);
  if (!viewer.user || !list) throw redirect("/login");
  return { viewer, tab, list };
}

const HOW = "Open a note's menu (the three dots) and choose Bookmark: it is kept here, where only you can see it.";

export default function Bookmarks() {
  const { tab, list } = useLoaderData<typeof loader>();
  const viewer = useViewer();
  return (
    <section className="page">
      <h1>Bookmarks</h1>
      <Tabs label="Bookmarks" current={tab} tabs={tabLinks("/bookmarks", "t", { note: "Notes", rep: "Replies" })} />
      {tab === "note" ? (
        <NoteList list={list as List} viewer={viewer} empty={`No bookmarks yet. ${HOW}`} />
      ) : (list as RepliesData).replies.length ? (
        (list as RepliesData).replies.map((r) => <ReplyCard key={r.id} reply={r} viewer={viewer} />)
      ) : (
        <p className="empty">No bookmarks yet. {HOW}</p>
      )}
    </section>
  );
}
