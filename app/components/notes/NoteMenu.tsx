import { Link, useLocation } from "@remix-run/react";
import Ellipsis from "lucide-react/icons/ellipsis";
import { useState } from "react";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";
import { dialogHref } from "~/lib/scroll";
import { closeMenu } from "../social/NoteActions";
import { NoteMenuExtra } from "../social/NoteMenuExtra";
import { SafetyItems } from "../safety/SafetyMenu";
import { Toast } from "../Toast";
import { noteHref } from "./NoteCard";

/** Spec 2 note menu: a <details> dropdown, so it opens without JavaScript too. */
export function NoteMenu({ note, viewer }: { note: NoteJson; viewer: UserJson | null }) {
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
    <details className="menu">
      <summary aria-label="Note menu">
        <Ellipsis size={20} />
      </summary>
      <ul>
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
        {!own && <NoteMenuExtra note={note} viewer={viewer} />}
        {!own && viewer && <SafetyItems user={note.user} />}
        {own && (
          <li>
            <Link to={del} preventScrollReset className="danger" onClick={closeMenu}>
              Delete
            </Link>
          </li>
        )}
      </ul>
      <Toast message={toast?.text} id={toast?.at} />
    </details>
  );
}
