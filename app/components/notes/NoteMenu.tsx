import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";
import { useViewer } from "~/lib/viewer";
import type { Marks } from "~/lib/toggle";
import { dialogHref, pageOf } from "~/lib/scroll";
import { closeMenu } from "../social/ToggleForm";
import { NoteMenuExtra } from "../social/NoteMenuExtra";
import { SafetyItems } from "../safety/SafetyMenu";
import { Dialog } from "../Dialog";
import { Icon } from "../Icon";
import { Toast } from "../Toast";
import { noteHref } from "./NoteCard";

/**
 * The entries of a note's menu (spec 2): Edit and Delete on one's own note; Copy link and Copy
 * text; Save, Report, Mute and Block on someone else's. `back` is where a form posted without
 * JavaScript returns (this page, unless the menu is a dialog); `marks` are the private marks'
 * states (Save) when already known.
 */
function NoteMenuItems({
  note,
  viewer,
  back,
  marks,
}: {
  note: NoteJson;
  viewer: UserJson | null;
  back?: string;
  marks?: Marks;
}) {
  const location = useLocation();
  const [toast, setToast] = useState<{ text: string; at: number } | null>(null);
  const own = note.user.me;
  const copy = async (text: string) => {
    for (const d of document.querySelectorAll("details.menu[open]")) d.removeAttribute("open");
    try {
      await navigator.clipboard.writeText(text);
    } catch {}
    setToast({ text: "Copied", at: Date.now() });
  };
  const edit = dialogHref(location, "note", { edit: note.id });
  const del = dialogHref(location, "delete-note", { id: note.id, u: note.user.username });
  return (
    <>
      {own && (
        <li>
          <Link to={edit} preventScrollReset onClick={closeMenu}>
            Edit
          </Link>
        </li>
      )}
      <li>
        <button
          type="button"
          className="js-only"
          onClick={() => copy(new URL(noteHref(note), window.location.href).href)}
        >
          Copy link
        </button>
        <noscript>
          <Link to={noteHref(note)}>Link</Link>
        </noscript>
      </li>
      <li>
        <button type="button" className="js-only" onClick={() => copy(note.txt)}>
          Copy text
        </button>
      </li>
      {!own && <NoteMenuExtra note={note} viewer={viewer} back={back} marks={marks} />}
      {!own && viewer && <SafetyItems user={note.user} back={back} />}
      {own && (
        <li>
          <Link to={del} preventScrollReset className="danger" onClick={closeMenu}>
            Delete
          </Link>
        </li>
      )}
      <Toast message={toast?.text} id={toast?.at} />
    </>
  );
}

/** Spec 2 note menu as a dropdown: a <details>, so it opens without JavaScript too. */
export function NoteMenu({
  note,
  viewer,
  open = false,
}: {
  note: NoteJson;
  viewer: UserJson | null;
  /** Open from the start (asked for before this module had loaded). */
  open?: boolean;
}) {
  const summary = useRef<HTMLElement>(null);
  // Asked for by a click on the link it replaces: the focus that link had comes here.
  useEffect(() => {
    if (open) summary.current?.focus();
  }, [open]);
  return (
    <details className="menu" open={open || undefined}>
      <summary aria-label="Note menu" ref={summary}>
        <Icon name="ellipsis" size={20} />
      </summary>
      <ul>
        <NoteMenuItems note={note} viewer={viewer} />
      </ul>
    </details>
  );
}

/**
 * The same menu as a dialog (?dialog=note-menu&id=): what a signed-in card's ⋯ opens without
 * JavaScript, so a card carries one link instead of the menu's forms (issue 19). Its forms return
 * to the page under it, the dialog closed.
 */
export function NoteMenuDialog({ note, marks }: { note: NoteJson | null; marks?: Marks }) {
  const location = useLocation();
  const viewer = useViewer();
  return (
    <Dialog title="Note actions">
      {note ? (
        <ul className="menu-sheet">
          <NoteMenuItems note={note} viewer={viewer} back={pageOf(location)} marks={marks} />
        </ul>
      ) : (
        <p>This note is no longer available.</p>
      )}
    </Dialog>
  );
}
