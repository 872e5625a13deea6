import { useFetcher, useLocation, useNavigate, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import { DeleteDialog, Dialog } from "../Dialog";
import { JsFlag } from "../JsFlag";
import { MentionTextarea } from "./Mentions";
import { learn } from "~/lib/counts";
import { pageOf } from "~/lib/scroll";
import { FieldError, SubmitRow } from "../Field";

export function DeleteNoteDialog() {
  const [params] = useSearchParams();
  return <DeleteDialog what="note" action="/actions/note" id={params.get("id") ?? ""} />;
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
  // Quoted: every card of the quoted note counts it, then the dialog closes where the page was,
  // once the fetcher's reload has landed (it carries the root's "posted" flash: a close while it
  // is on its way reads the page again and the router drops that reload, flash and all). Only for
  // an answer this dialog asked for: a keyed fetcher's answer outlives the dialog, and must not
  // close the next one.
  const [sentOver, setSentOver] = useState<{ answer: unknown } | null>(null);
  const fresh = sentOver !== null && fetcher.state === "idle" && fetcher.data !== sentOver.answer;
  const quoted = fresh && fetcher.data?.ok ? fetcher.data : null;
  useEffect(() => {
    if (!quoted) return;
    learn("note", id, { renum: quoted.renum });
    navigate(back, { replace: true, preventScrollReset: true });
  }, [quoted, id, back, navigate]);

  return (
    <Dialog title="Quote">
      <fetcher.Form method="post" action="/actions/renote" onSubmit={() => setSentOver({ answer: fetcher.data })}>
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
        <FieldError error={message} />
        {note && (
          <div className="quoted">
            <strong>{note.user.fullname}</strong> <small>@{note.user.username}</small>
            <span className="quoted-text">{note.txt}</span>
          </div>
        )}
        <SubmitRow label="Quote" busy={fetcher.state !== "idle"} />
      </fetcher.Form>
    </Dialog>
  );
}
