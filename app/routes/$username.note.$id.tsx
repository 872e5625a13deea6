import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { NoteCard } from "~/components/notes/NoteCard";
import { Replies } from "~/components/social/Replies";
import { noteRead } from "../../worker/features/notes/read.service";
import { threadRead } from "../../worker/features/replies/thread.service";
import { listParams, readPage } from "~/lib/page.server";
import { IdParam } from "../../worker/lib/params";
import { orMoved } from "~/lib/moved.server";
import { excerpt, originOf, previewMeta } from "~/lib/meta";
import { positiveId } from "~/lib/notes.server";
import { useViewer } from "~/lib/viewer";
import { keepAfterAnsweredActions } from "~/lib/revalidate";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: "Note · NoteX" }];
  const { note } = data;
  return previewMeta(
    {
      title: `${note.user.fullname}: “${excerpt(note.txt || note.renote?.txt || "", 60)}”`,
      description: excerpt(note.txt || note.renote?.txt || `A note by @${note.user.username}`),
      path: `/${note.user.username}/note/${note.id}`,
      image: note.images[0] || note.user.avatar,
      type: "article",
    },
    originOf(matches),
  );
};

/** `?reply=`: a reply just written, shown in the thread; anything but an id is ignored (as the API does). */
function replyFocus(url: URL): number | undefined {
  const parsed = IdParam.shape.id.safeParse(url.searchParams.get("reply") ?? undefined);
  return parsed.success ? parsed.data : undefined;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  const username = params.username ?? "";
  const url = new URL(request.url);
  // The note (by its author's name in the address) and its replies: one batch.
  const page = await readPage(request, context, {
    note: (db, me) => noteRead(db, id, me, username),
    // The conversation as a tree, with the reply just written (`?reply=`) in it.
    replies: (db, me) => threadRead(db, { kind: "note", id }, { ...listParams(url), focus: replyFocus(url) }, me),
  });
  const note = await orMoved(page.reads.note, page, request, username);
  return { viewer: page.viewer, note, replies: page.reads.replies.ok ? page.reads.replies.data : null };
}

export default function NotePage() {
  const { note, replies } = useLoaderData<typeof loader>();
  const user = useViewer();
  const viewer = user;
  return (
    <section className="page">
      <h1>Note</h1>
      <NoteCard note={note} viewer={viewer} detail />
      <Replies note={note} viewer={viewer} data={replies} />
    </section>
  );
}

export const shouldRevalidate = keepAfterAnsweredActions;
