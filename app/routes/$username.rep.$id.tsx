import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { NoteCard, noteHref } from "~/components/notes/NoteCard";
import { ReplyCard, ReplyForm, replyHref } from "~/components/social/ReplyCard";
import { apiFor, result } from "~/lib/api.server";
import { orMoved } from "~/lib/moved.server";
import { excerpt, originOf, previewMeta } from "~/lib/meta";
import { positiveId } from "~/lib/notes.server";
import type { loader as rootLoader } from "~/root";
import { keepAfterAnsweredActions } from "~/lib/revalidate";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const reply = data?.chain[data.chain.length - 1];
  if (!data || !reply) return [{ title: "Reply · NoteX" }];
  return previewMeta(
    {
      title: `${reply.user.fullname}: “${excerpt(reply.txt, 60)}”`,
      description: excerpt(reply.txt),
      path: `/${reply.user.username}/rep/${reply.id}`,
      image: reply.user.avatar,
      type: "article",
    },
    originOf(matches),
  );
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const id = positiveId(params.id);
  const api = apiFor(request, context);
  const [thread, children] = await Promise.all([
    result(
      api.v1.replies[":id"].username[":username"].$get({
        param: { id: String(id), username: params.username ?? "" },
      }),
    ),
    result(api.v1.replies[":id"].child.$get({ param: { id: String(id) }, query: { page: "1" } })),
  ]);
  const t = await orMoved(thread, api, request, params.username ?? "");
  return {
    note: t.note,
    chain: t.replies,
    children: children.ok ? children.data.replies : [],
  };
}

/** Spec 2: the parent note, the chain of ancestor replies, the focused reply (scrolled into view), its replies. */
export default function ReplyPage() {
  const { note, chain, children } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const viewer = root?.user ?? null;
  const focus = chain[chain.length - 1];
  useEffect(() => {
    document.getElementById(`rep-${focus.id}`)?.scrollIntoView({ block: "center" });
  }, [focus.id]);
  return (
    <section className="page">
      <h1>Reply</h1>
      <NoteCard note={note} viewer={viewer} />
      <div className="thread">
        {chain.map((r, i) => (
          <ReplyCard
            key={r.id}
            reply={r}
            viewer={viewer}
            focus={r.id === focus.id}
            // This page goes with it: back to what it answered.
            goneTo={i ? replyHref(chain[i - 1]) : noteHref(note)}
          />
        ))}
      </div>
      <ReplyForm parent={focus.id} viewer={viewer} />
      <div className="children">
        {children.map((r) => (
          <ReplyCard key={r.id} reply={r} viewer={viewer} />
        ))}
      </div>
    </section>
  );
}

export const shouldRevalidate = keepAfterAnsweredActions;
