import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { NoteCard } from "~/components/notes/NoteCard";
import { Replies } from "~/components/social/Replies";
import { apiFor, result } from "~/lib/api.server";
import { orMoved } from "~/lib/moved.server";
import { excerpt, originOf, previewMeta } from "~/lib/meta";
import { positiveId } from "~/lib/notes.server";
import { loadReplies } from "~/lib/replies.server";
import type { loader as rootLoader } from "~/root";
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

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  const api = apiFor(request, context);
  const [note, replies] = await Promise.all([
    result(api.v1.notes[":username"][":id"].$get({ param: { username: params.username ?? "", id } })),
    loadReplies(api, id, new URL(request.url)),
  ]);
  return { note: await orMoved(note, api, request, params.username ?? ""), replies };
}

export default function NotePage() {
  const { note, replies } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const viewer = root?.user ?? null;
  return (
    <section className="page">
      <h1>Note</h1>
      <NoteCard note={note} viewer={viewer} detail />
      <Replies note={note} viewer={viewer} data={replies} />
    </section>
  );
}

export const shouldRevalidate = keepAfterAnsweredActions;
