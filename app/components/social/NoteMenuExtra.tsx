import { Link, useLocation } from "@remix-run/react";
import { useState } from "react";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";
import { MARK_TOGGLES, type Marks } from "~/lib/toggle";
import { dialogHref } from "~/lib/scroll";
import { remoteHost } from "~/lib/url";
import { MarkToggle } from "./MarkToggle";
import { Toast } from "../Toast";

/** The Report dialog's address: a note from another server names that server (the Forward box). */
const reportArgs = (note: NoteJson): Record<string, string | number> => {
  const host = remoteHost(note.user.username);
  const args = { id: note.id, kind: "note", u: note.user.username };
  return host ? { ...args, host } : args;
};

/**
 * Each private mark (Save) and Report on others' notes. `marks`: their states when already read
 * with the page, as the menu's dialog is; one toast for whichever mark last changed.
 */
export function NoteMenuExtra({
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

  if (!viewer) {
    return (
      <>
        {MARK_TOGGLES.map((m) => (
          <li key={m.of}>
            <Link to={dialogHref(location, "login")}>{m.label.off}</Link>
          </li>
        ))}
        <li>
          <Link to={dialogHref(location, "login")}>Report</Link>
        </li>
      </>
    );
  }
  return (
    <>
      {MARK_TOGGLES.map((m) => (
        <MarkToggle
          key={m.of}
          mark={m}
          id={note.id}
          known={marks?.[m.state]}
          back={back}
          onToast={(text) => setToast({ text, at: Date.now() })}
        />
      ))}
      <li>
        <Link to={dialogHref(location, "report", reportArgs(note))} preventScrollReset>
          Report
        </Link>
      </li>
      <Toast message={toast?.text} id={toast?.at} />
    </>
  );
}
