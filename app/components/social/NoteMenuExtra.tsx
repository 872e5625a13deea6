import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";
import { get } from "~/lib/client";
import { useSerialToggle } from "~/lib/toggle";
import { dialogHref } from "~/lib/scroll";
import { JsFlag } from "../JsFlag";
import { closeMenu } from "./NoteActions";
import { Toast } from "../Toast";

/**
 * Save and Report on others' notes. Spec 4: the saved state is looked up when the menu opens;
 * Save toggles with a Bookmarked / Unbookmarked toast; a failed bookmark sets the state off.
 */
export function NoteMenuExtra({ note, viewer }: { note: NoteJson; viewer: UserJson | null }) {
  const location = useLocation();
  const fetcher = useFetcher<{ ok: boolean; data?: { bookmarked: boolean } }>();
  const [saved, setSaved] = useState<boolean | null>(null);
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
      <li id={`menu-${note.id}`}>
        <fetcher.Form
          method="post"
          action="/actions/bookmark"
          data-on="save"
          data-off="unsave"
          onSubmit={(e) => {
            closeMenu(e);
            toggle.onSubmit(e);
          }}
        >
          <input type="hidden" name="id" value={note.id} />
          <input type="hidden" name="t" value="note" />
          <input type="hidden" name="intent" value={toggle.shown ? "unsave" : "save"} />
          <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
          <JsFlag />
          <button type="submit">{toggle.shown ? "Unsave" : "Save"}</button>
        </fetcher.Form>
      </li>
      <li>
        <Link to={dialogHref(location, "report", { id: note.id, kind: "note" })} preventScrollReset>
          Report
        </Link>
      </li>
      <Toast message={toast?.text} id={toast?.at} />
    </>
  );
}
