import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { NoteJson } from "../../worker/features/notes/notes.types";
import { NoteCard } from "~/components/notes/NoteCard";
import { Replies } from "~/components/social/Replies";
import { apiFor, orThrow } from "~/lib/api.server";
import { positiveId } from "~/lib/notes.server";
import { loadReplies } from "~/lib/replies.server";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.note.user.fullname}: “${data.note.txt.slice(0, 60)}” · NoteX` : "Note · NoteX" },
  { name: "description", content: data?.note.txt.slice(0, 160) ?? "" },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  const api = apiFor(request, context);
  const [note, replies] = await Promise.all([
    api.get<NoteJson>(`/notes/${encodeURIComponent(params.username ?? "")}/${id}`),
    loadReplies(api, id, new URL(request.url)),
  ]);
  return { note: orThrow(note), replies };
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
