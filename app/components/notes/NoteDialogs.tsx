import { useFetcher, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import { ConfirmDialog, Dialog } from "../Dialog";
import { JsFlag } from "../JsFlag";
import { MentionTextarea } from "./Mentions";
import { learn } from "~/lib/counts";
import { pageOf } from "~/lib/scroll";

export function DeleteNoteDialog() {
  const [params] = useSearchParams();
  return (
    <ConfirmDialog
      title="Delete note"
      question="Are you sure you want to delete?"
      action="/actions/note"
      fields={{ intent: "delete", id: params.get("id") ?? "" }}
    />
  );
}

/** Spec 2: the quote editor (placeholder "Add a note"); an empty quote says "please enter your note." */
export function QuoteDialog({ note }: { note: NoteJson | null }) {
  const fetcher = useFetcher<{ ok: boolean; message?: string | null; renum?: number }>({ key: "quote" });
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const id = Number(params.get("id")) || 0;
  const message =
    fetcher.data && !fetcher.data.ok
      ? fetcher.data.message
      : params.get("error") === "empty"
        ? "please enter your note."
        : null;
  const back = pageOf(location);
  // Quoted: every card of the quoted note counts it, then the dialog closes where the page was.
  // Only while the answer is new (the fetcher reloads the page's data): a keyed fetcher's answer
  // outlives the dialog, and must not close the next one.
  const quoted = fetcher.state === "loading" && fetcher.data?.ok ? fetcher.data : null;
  useEffect(() => {
    if (!quoted) return;
    learn("note", id, { renum: quoted.renum });
    navigate(back, { replace: true, preventScrollReset: true });
  }, [quoted, id, back, navigate]);

  return (
    <Dialog title="Quote">
      <fetcher.Form method="post" action="/actions/renote">
        <input type="hidden" name="intent" value="quote" />
        <input type="hidden" name="id" value={id} />
        <input type="hidden" name="redirectTo" value={back} />
        <JsFlag />
        <label htmlFor="quote-text" className="sr-only">
          Quote
        </label>
        <MentionTextarea
          id="quote-text"
          name="content"
          rows={4}
          placeholder="Add a note"
          aria-invalid={message ? true : undefined}
        />
        {message && (
          <p className="error" role="alert">
            {message}
          </p>
        )}
        {note && (
          <div className="quoted">
            <strong>{note.user.fullname}</strong> <small>@{note.user.username}</small>
            <span className="quoted-text">{note.txt}</span>
          </div>
        )}
        <div className="row">
          <button className="btn primary" type="submit" disabled={fetcher.state !== "idle"}>
            Quote
          </button>
        </div>
      </fetcher.Form>
    </Dialog>
  );
}
