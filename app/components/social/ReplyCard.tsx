import { Link, useFetcher, useLocation } from "@remix-run/react";
import type { ReplyJson } from "../../../worker/features/replies/replies.service";
import type { UserJson } from "../../../worker/features/users/users.service";
import { relativeTime } from "~/lib/time";
import { withParam } from "~/lib/url";
import { Avatar } from "../Avatar";
import { JsFlag } from "../JsFlag";
import { LikeButton } from "./NoteActions";

export const replyHref = (r: ReplyJson) => `/${r.user.username}/rep/${r.id}`;

export function ReplyCard({
  reply,
  viewer,
  focus = false,
}: {
  reply: ReplyJson;
  viewer: UserJson | null;
  focus?: boolean;
}) {
  return (
    <article
      className={`reply${focus ? " focus" : ""}`}
      id={`rep-${reply.id}`}
      aria-label={`Reply by ${reply.user.fullname}`}
    >
      <header className="note-head">
        <Link to={`/${reply.user.username}`} className="author">
          <Avatar name={reply.user.fullname} src={reply.user.avatar} size={32} />
          <span>
            <strong>{reply.user.fullname}</strong> <small>@{reply.user.username}</small>
          </span>
        </Link>
        <Link to={replyHref(reply)} className="time">
          <time dateTime={new Date(reply.created_at).toISOString()} suppressHydrationWarning>
            {relativeTime(reply.created_at)}
          </time>
        </Link>
      </header>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on write */}
      <div className="content" dangerouslySetInnerHTML={{ __html: reply.content }} />
      <footer className="note-actions reply-actions">
        <Link to={replyHref(reply)} className="act" aria-label={`Replies (${reply.repnum})`}>
          💬 {reply.repnum}
        </Link>
        <LikeButton kind="reply" id={reply.id} liked={reply.liked} likenum={reply.likenum} viewer={viewer} />
        {reply.user.me && (
          <form method="post" action="/actions/reply" className="inline">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={reply.id} />
            <button type="submit" className="act">
              Delete
            </button>
          </form>
        )}
      </footer>
    </article>
  );
}

/** "Write your reply": a plain form that works without JS; published replies show a toast. */
export function ReplyForm({
  parent,
  viewer,
  label = "Write your reply",
}: {
  parent: number;
  viewer: UserJson | null;
  label?: string;
}) {
  const location = useLocation();
  const fetcher = useFetcher<{ ok: boolean; message?: string }>({ key: `reply-${parent}` });
  if (!viewer) {
    return (
      <Link to={withParam(location, "dialog", "login")} className="composer-prompt" preventScrollReset>
        <span>{label}</span>
      </Link>
    );
  }
  const error =
    fetcher.data && !fetcher.data.ok ? fetcher.data.message : new URLSearchParams(location.search).get("reply_error");
  return (
    <fetcher.Form
      method="post"
      action="/actions/reply"
      className="reply-form"
      key={fetcher.data?.ok ? Date.now() : "form"}
    >
      <input type="hidden" name="intent" value="create" />
      <input type="hidden" name="parent" value={parent} />
      <input type="hidden" name="redirectTo" value={location.pathname} />
      <JsFlag />
      <label htmlFor={`reply-${parent}`} className="sr-only">
        {label}
      </label>
      <textarea id={`reply-${parent}`} name="content" rows={2} placeholder={label} maxLength={2000} required />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="btn primary small" disabled={fetcher.state !== "idle"}>
        Reply
      </button>
    </fetcher.Form>
  );
}
