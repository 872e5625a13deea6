import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";
import { get } from "~/lib/client";
import { useSerialToggle } from "~/lib/toggle";
import { dialogHref } from "~/lib/scroll";
import { ToggleForm } from "./ToggleForm";
import { Toast } from "../Toast";

/**
 * Save and Report on others' notes. Spec 4: the saved state is looked up when the menu opens
 * (`known`: already read with the page, as the menu's dialog is); Save toggles with a Bookmarked /
 * Unbookmarked toast; a failed bookmark sets the state off. `back`: where the form returns
 * without JavaScript (this page by default).
 */
/** The Report dialog's address: a note from another server names that server (the Forward box). */
const reportArgs = (note: NoteJson): Record<string, string | number> => {
  const host = note.user.username.split("@")[1];
  const args = { id: note.id, kind: "note", u: note.user.username };
  return host ? { ...args, host } : args;
};

export function NoteMenuExtra({
  note,
  viewer,
  back,
  saved: known,
}: {
  note: NoteJson;
  viewer: UserJson | null;
  back?: string;
  saved?: boolean;
}) {
  const location = useLocation();
  const fetcher = useFetcher<{ ok: boolean; data?: { bookmarked: boolean } }>();
  const [saved, setSaved] = useState<boolean | null>(known ?? null);
  const [toast, setToast] = useState<{ text: string; at: number } | null>(null);

  useEffect(() => {
    const details = document.getElementById(`menu-${note.id}`)?.closest("details");
    if (!details || !viewer) return;
    const onToggle = () => {
      if (details.open) {
        get<{ bookmarked: boolean }>(`/bookmarks/${note.id}?t=note`, { fresh: true })
          .then((r) => setSaved(r.bookmarked))
          .catch(() => setSaved(false));
      }
    };
    details.addEventListener("toggle", onToggle);
    // A menu asked for before its module had loaded mounts open.
    if (details.open) onToggle();
    return () => details.removeEventListener("toggle", onToggle);
  }, [note.id, viewer]);

  const toggle = useSerialToggle(fetcher, saved ?? false, (d) => d.data?.bookmarked);
  useEffect(() => {
    if (!fetcher.data) return;
    if (fetcher.data.ok && fetcher.data.data) {
      setSaved(fetcher.data.data.bookmarked);
      setToast({ text: fetcher.data.data.bookmarked ? "Bookmarked" : "Unbookmarked", at: Date.now() });
    } else setSaved(false);
  }, [fetcher.data]);

  if (!viewer) {
    return (
      <>
        <li id={`menu-${note.id}`}>
          <Link to={dialogHref(location, "login")}>Save</Link>
        </li>
        <li>
          <Link to={dialogHref(location, "login")}>Report</Link>
        </li>
      </>
    );
  }
  return (
    <>
      {/* The dropdown finds its <details> by this id; the dialog knows the state already. */}
      <li id={known === undefined ? `menu-${note.id}` : undefined}>
        <ToggleForm of="save" fetcher={fetcher} toggle={toggle} id={note.id} t="note" back={back} inMenu>
          <button type="submit">{toggle.shown ? "Unsave" : "Save"}</button>
        </ToggleForm>
      </li>
      <li>
        <Link to={dialogHref(location, "report", reportArgs(note))} preventScrollReset>
          Report
        </Link>
      </li>
      <Toast message={toast?.text} id={toast?.at} />
    </>
  );
}
