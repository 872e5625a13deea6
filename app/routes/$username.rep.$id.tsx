import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { NoteCard, noteHref } from "~/components/notes/NoteCard";
import { ReplyCard, ReplyForm, replyHref } from "~/components/social/ReplyCard";
import { chainRead, repliesRead } from "../../worker/features/replies/replies.service";
import { answering } from "../../worker/features/replies/parent";
import { replyOfNumber } from "../../worker/lib/ids";
import { readPage } from "~/lib/page.server";
import { orMoved } from "~/lib/moved.server";
import { excerpt, originOf, previewMeta } from "~/lib/meta";
import { positiveId } from "~/lib/notes.server";
import { useViewer } from "~/lib/viewer";
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
  // A reply made before worker ids still answers at the address it was published under.
  const id = replyOfNumber(positiveId(params.id));
  const username = params.username ?? "";
  // The reply's thread (its ancestors and its note) and its own replies: one batch.
  const page = await readPage(request, context, {
    thread: (db, me) => chainRead(db, id, username, me),
    children: (db, me) => repliesRead(db, answering({ kind: "reply", id }), { page: 1 }, me),
  });
  const t = await orMoved(page.reads.thread, page, request, username);
  const { children } = page.reads;
  return { viewer: page.viewer, note: t.note, chain: t.replies, children: children.ok ? children.data.replies : [] };
}

/** Spec 2: the parent note, the chain of ancestor replies, the focused reply (scrolled into view), its replies. */
export default function ReplyPage() {
  const { note, chain, children } = useLoaderData<typeof loader>();
  const user = useViewer();
  const viewer = user;
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
