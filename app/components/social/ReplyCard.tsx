import { Form, Link, useFetcher, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { ReplyJson } from "../../../worker/features/replies/replies.service";
import type { UserJson } from "../../../worker/features/users/users.service";
import { noticeText } from "~/lib/notices";
import { Ago } from "../Ago";
import { dialogHref, pageOf } from "~/lib/scroll";
import { AuthorLink } from "../Avatar";
import { DeleteDialog, Dialog } from "../Dialog";
import { JsFlag } from "../JsFlag";
import { MentionTextarea } from "../notes/Mentions";
import { SubmitRow, FieldError } from "../Field";
import { Toast } from "../Toast";
import { Counted, LikeButton, ReplyIcon } from "./NoteActions";

export const replyHref = (r: ReplyJson) => `/${r.user.username}/rep/${r.id}`;

/** Spec 2 "edit rep": the owner's reply editor, opened by ?dialog=edit-reply&rid=ID (works without JS). */
function EditReplyDialog({ reply }: { reply: ReplyJson }) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const error = noticeText(params.get("edit_error"));
  const back = new URLSearchParams(params);
  for (const k of ["dialog", "rid", "edit_error"]) back.delete(k);
  const backTo = `${location.pathname}${back.size ? `?${back}` : ""}`;
  return (
    <Dialog title="Edit reply" closeTo={backTo} guard>
      <Form method="post" action="/actions/reply" className="composer">
        <input type="hidden" name="intent" value="edit" />
        <input type="hidden" name="id" value={reply.id} />
        <input type="hidden" name="redirectTo" value={backTo} />
        <label htmlFor={`edit-rep-${reply.id}`}>Reply</label>
        <MentionTextarea
          id={`edit-rep-${reply.id}`}
          name="content"
          rows={4}
          defaultValue={reply.txt}
          aria-invalid={error ? true : undefined}
        />
        <FieldError error={error} />
        <SubmitRow label="Save" />
      </Form>
    </Dialog>
  );
}

/**
 * Deleting a reply asks first (as a note does) and leaves you on the thread (issue 21 item 11):
 * on the page you were on, or, when that page was the reply's own or one below it (its whole
 * subtree goes), on the reply or note it answered (`goneTo`).
 */
function DeleteReplyDialog({ reply, goneTo }: { reply: ReplyJson; goneTo: string }) {
  return <DeleteDialog what="reply" action="/actions/reply" id={String(reply.id)} goneTo={goneTo} keepPlace />;
}

export function ReplyCard({
  reply,
  viewer,
  focus = false,
  goneTo,
  replyTo,
}: {
  reply: ReplyJson;
  viewer: UserJson | null;
  focus?: boolean;
  /** Where the reply button leads: by default the reply's page; in a thread, its reply box. */
  replyTo?: string;
  /** Where deleting this reply leads, when it takes the page away; by default the page stays. */
  goneTo?: string;
}) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const opened = (dialog: string) =>
    reply.user.me && params.get("dialog") === dialog && params.get("rid") === String(reply.id);

  return (
    <article
      className={`reply${focus ? " focus" : ""}`}
      id={`rep-${reply.id}`}
      aria-label={`Reply by ${reply.user.fullname}`}
    >
      <header className="note-head">
        <AuthorLink user={reply.user} size={32} />
        <Link to={replyHref(reply)} className="time">
          <Ago ms={reply.created_at} />
        </Link>
      </header>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on write */}
      <div className="content" dangerouslySetInnerHTML={{ __html: reply.content }} />
      <footer className="note-actions reply-actions">
        {replyTo && viewer ? (
          <Link to={replyTo} className="act" preventScrollReset replace>
            <Counted icon={ReplyIcon} label="Reply; replies" n={reply.repnum} />
          </Link>
        ) : (
          <Link
            to={replyTo ? dialogHref(location, "login") : replyHref(reply)}
            className="act"
            preventScrollReset={!!replyTo}
          >
            <Counted icon={ReplyIcon} label="Replies" n={reply.repnum} />
          </Link>
        )}
        <LikeButton kind="reply" item={reply} viewer={viewer} />
        {reply.user.me && (
          <Link to={dialogHref(location, "edit-reply", { rid: reply.id })} className="act" preventScrollReset replace>
            Edit
          </Link>
        )}
        {reply.user.me && (
          <Link to={dialogHref(location, "delete-reply", { rid: reply.id })} className="act" preventScrollReset>
            Delete
          </Link>
        )}
      </footer>
      {opened("edit-reply") && <EditReplyDialog reply={reply} />}
      {opened("delete-reply") && <DeleteReplyDialog reply={reply} goneTo={goneTo ?? pageOf(location)} />}
    </article>
  );
}

/** "Write your reply": a plain form that works without JS; published replies show a toast. */
export function ReplyForm({
  parent,
  viewer,
  label = "Write your reply",
  inThread = false,
}: {
  parent: number;
  viewer: UserJson | null;
  label?: string;
  /**
   * A reply box opened under a reply in the note page's thread: it takes the caret, and the reply
   * it publishes is shown under its parent (the page is read again with it in focus, `?reply=`).
   */
  inThread?: boolean;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  const fetcher = useFetcher<{ ok: boolean; message?: string; id?: number }>({ key: `reply-${parent}` });
  const form = useRef<HTMLFormElement>(null);
  const [published, setPublished] = useState(0);
  // Set in the submit handler itself: a second click can come before React re-renders the button
  // as disabled, so the fetcher's state alone does not stop it.
  const busy = useRef(false);
  // Typed text is kept as a draft (sessionStorage, per parent), as the note composer keeps one:
  // closing the box or leaving the page loses nothing; publishing clears it.
  const draft = `notex:reply-draft:${parent}`;
  useEffect(() => {
    const box = form.current?.elements.namedItem("content");
    if (!(box instanceof HTMLTextAreaElement) || box.value) return;
    try {
      box.value = sessionStorage.getItem(draft) ?? "";
    } catch {}
  }, [draft]);
  const keep = (text: string) => {
    try {
      if (text.trim()) sessionStorage.setItem(draft, text);
      else sessionStorage.removeItem(draft);
    } catch {}
  };
  // Published: the box empties (a second click cannot post it again) and a toast says so.
  useEffect(() => {
    if (fetcher.state !== "idle") return;
    busy.current = false;
    if (fetcher.data?.ok) {
      form.current?.reset();
      keep("");
      setPublished(Date.now());
      // A reply to a reply: the thread shows it under its parent (the page's read with it in
      // focus, wherever it falls), and the box closes.
      if (inThread && fetcher.data.id)
        navigate(`${location.pathname}?reply=${fetcher.data.id}#rep-${fetcher.data.id}`, {
          replace: true,
          preventScrollReset: true,
        });
    }
  }, [fetcher.state, fetcher.data, inThread, navigate, location.pathname, draft]);
  if (!viewer) {
    return (
      <Link to={dialogHref(location, "login")} className="composer-prompt" preventScrollReset>
        <span>{label}</span>
      </Link>
    );
  }
  const error =
    fetcher.data && !fetcher.data.ok
      ? fetcher.data.message
      : noticeText(new URLSearchParams(location.search).get("reply_error"));
  return (
    <fetcher.Form
      ref={form}
      method="post"
      action="/actions/reply"
      className="reply-form"
      preventScrollReset
      onInput={(e) => {
        const t = e.target;
        if (t instanceof HTMLTextAreaElement && t.name === "content") keep(t.value);
      }}
      onSubmit={(e) => {
        // One reply per click, however fast the clicks come.
        if (busy.current) e.preventDefault();
        busy.current = true;
      }}
    >
      <input type="hidden" name="intent" value="create" />
      <input type="hidden" name="parent" value={parent} />
      <input type="hidden" name="redirectTo" value={location.pathname} />
      {inThread && <input type="hidden" name="thread" value="1" />}
      <JsFlag />
      <label htmlFor={`reply-${parent}`} className="sr-only">
        {label}
      </label>
      <MentionTextarea
        id={`reply-${parent}`}
        name="content"
        rows={2}
        placeholder={label}
        maxLength={2000}
        required
        autoFocus={inThread}
      />
      <FieldError error={error} />
      <button type="submit" className="btn primary small" disabled={fetcher.state !== "idle"}>
        Reply
      </button>
      <Toast message={published ? "Your reply has been published" : null} id={published} />
    </fetcher.Form>
  );
}
