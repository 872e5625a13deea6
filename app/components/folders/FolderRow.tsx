import { noun } from "~/lib/plural";
import { Link } from "@remix-run/react";
import type { FolderJson } from "../../../worker/features/folders/folders.service";
import { typeLabel } from "../../../worker/features/folders/folders.constants";
import { Avatar } from "../Avatar";

export const folderHref = (username: string, f: { slug: string }) => `/${username}/x/${f.slug}`;
const date = (ms: number) => (ms ? new Date(ms).toISOString().slice(0, 10) : "—");

/** Spec 2 folder row: logo, name, type, note count, noted-at date. */
export function FolderRow({ folder, username }: { folder: FolderJson; username: string }) {
  return (
    <li>
      <Link to={folderHref(username, folder)} className="folder-row">
        <Avatar name={folder.name} src={folder.logo} size={40} />
        <span className="folder-main">
          <strong>{folder.name}</strong>
          <small className="muted">{typeLabel(folder.type)}</small>
        </span>
        <span className="muted">
          {folder.notenum} {noun(folder.notenum, "note")}
        </span>
        <time className="muted" dateTime={folder.noted_at ? new Date(folder.noted_at).toISOString() : undefined}>
          {date(folder.noted_at)}
        </time>
      </Link>
    </li>
  );
}
