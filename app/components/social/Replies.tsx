import { Link, useLocation } from "@remix-run/react";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { ReplyJson } from "../../../worker/features/replies/replies.service";
import type { UserJson } from "../../../worker/features/users/users.service";
import { ReplyCard, ReplyForm, replyHref } from "./ReplyCard";
import { MoreLink } from "../MoreLink";

export interface RepliesData {
  replies: ReplyJson[];
  paginator: { page: number; is_end: boolean };
  cursor: string | null;
}

/** Levels the note page shows (worker/features/replies/thread.service.ts THREAD_DEPTH). */
const DEPTH = 3;

/** The query parameter that opens the reply box under a reply (a link: it works without JS). */
export const REPLY_TO = "reply_to";

type Node = { reply: ReplyJson; children: Node[] };

/** The flat answer nested by parent: the direct replies in the server's order, each with its own. */
function treeOf(replies: ReplyJson[], root: number): Node[] {
  const nodes = new Map(replies.map((r) => [r.id, { reply: r, children: [] as Node[] }]));
  const top: Node[] = [];
  for (const r of replies) {
    const node = nodes.get(r.id) as Node;
    if (r.parent === root) top.push(node);
    else nodes.get(r.parent)?.children.push(node);
  }
  return top;
}

function moreText(n: number) {
  return n === 1 ? "1 more reply" : `${n} more replies`;
}

/** One reply in the tree, its reply box when opened, and what hangs under it. */
function Branch({
  node,
  depth,
  viewer,
  openFor,
}: {
  node: Node;
  depth: number;
  viewer: UserJson | null;
  openFor: number;
}) {
  const location = useLocation();
  const { reply, children } = node;
  // The deepest level replies on the reply's own page (where the thread goes on).
  const replyTo = depth < DEPTH ? replyBoxHref(location, reply.id) : undefined;
  const hidden = reply.repnum - children.length;
  return (
    <li className={`branch depth-${depth}`}>
      <ReplyCard reply={reply} viewer={viewer} replyTo={replyTo} />
      {openFor === reply.id && depth < DEPTH && (
        <div className="branch-form">
          <ReplyForm parent={reply.id} viewer={viewer} label={`Reply to ${reply.user.fullname}`} inThread />
        </div>
      )}
      {children.length > 0 && (
        <ol className="convo">
          {children.map((c) => (
            <Branch key={c.reply.id} node={c} depth={depth + 1} viewer={viewer} openFor={openFor} />
          ))}
        </ol>
      )}
      {/* On a phone the third level is folded into this link (styles: .phone-more). */}
      {depth === DEPTH - 1 && children.length > 0 && (
        <Link to={`${replyHref(reply)}#replies`} className="thread-more phone-more">
          Continue this thread
        </Link>
      )}
      {hidden > 0 && (
        <Link to={`${replyHref(reply)}#replies`} className="thread-more">
          {depth < DEPTH ? `Show ${moreText(hidden)}` : "Continue this thread"}
        </Link>
      )}
    </li>
  );
}

/** The href that opens the reply box under reply `id` on this page, anchored at that reply. */
function replyBoxHref(location: { pathname: string; search: string }, id: number) {
  const p = new URLSearchParams(location.search);
  p.set(REPLY_TO, String(id));
  p.delete("reply");
  return `${location.pathname}?${p}#rep-${id}`;
}

/**
 * The note page's "Write your reply" bar and its conversation as a tree: direct replies oldest
 * first (a More link for the rest), replies to them indented under a thread line, levels deep;
 * deeper levels and a reply's further replies behind "show more" (the reply's own page).
 */
export function Replies({ note, viewer, data }: { note: NoteJson; viewer: UserJson | null; data: unknown }) {
  const d = data as RepliesData | null;
  const location = useLocation();
  const openFor = Number(new URLSearchParams(location.search).get(REPLY_TO)) || 0;
  const tree = d ? treeOf(d.replies, -note.id) : [];
  return (
    <section id="replies" className="replies" aria-label="Replies">
      <ReplyForm parent={-note.id} viewer={viewer} />
      {tree.length > 0 && (
        <ol className="convo convo-root">
          {tree.map((n) => (
            <Branch key={n.reply.id} node={n} depth={1} viewer={viewer} openFor={openFor} />
          ))}
        </ol>
      )}
      {d && !d.paginator.is_end && d.cursor && (
        <MoreLink to={`?page=${d.paginator.page + 1}&cursor=${d.cursor}#replies`}>More replies</MoreLink>
      )}
    </section>
  );
}
