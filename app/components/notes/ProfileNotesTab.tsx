import { profilePath } from "~/lib/url";
import { Link } from "@remix-run/react";
import type { NoteList as List } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";
import { useViewer } from "~/lib/viewer";
import { NoteList } from "./NoteList";

export interface NotesTabData {
  label: string;
  list: List;
}

/** The profile's loader answers the open tab's list under `data`. */
const notesOfProfile = (answer: unknown) => (answer as { data?: NotesTabData | null }).data?.list;

/** The profile's Notes tab: x-label filter (l=), Take a note for the owner, the notes. */
export function ProfileNotesTab({ data, user }: { data: unknown; user?: UserJson }) {
  const viewer = useViewer();
  const d = data as NotesTabData | null;
  if (!d || !user) return <p className="empty">No notes yet</p>;
  // Notes from another server all carry the one label `fediverse`: no filter for them.
  const labels = user.remote_url ? [] : Object.entries(user.labels);
  const base = `${profilePath(user.username)}?t=notes`;
  return (
    <div>
      {labels.length > 0 && (
        <nav className="chips" aria-label="Filter by x-label">
          <Link to={base} aria-current={!d.label ? "page" : undefined}>
            All
          </Link>
          {labels.map(([l, n]) => (
            <Link key={l} to={`${base}&l=${encodeURIComponent(l)}`} aria-current={d.label === l ? "page" : undefined}>
              {l} ({n})
            </Link>
          ))}
        </nav>
      )}
      {user.me && (
        <Link
          to={`${base}${d.label ? `&l=${encodeURIComponent(d.label)}` : ""}&dialog=note`}
          className="btn primary small"
          preventScrollReset
        >
          Take a note
        </Link>
      )}
      <NoteList list={d.list} viewer={viewer} listIn={notesOfProfile} />
    </div>
  );
}
