import { noun } from "~/lib/plural";
import { Link } from "@remix-run/react";
import type { FolderJson } from "../../../worker/features/folders/folders.service";
import { typeLabel } from "../../../worker/features/folders/folders.constants";
import { FolderLogo, monthRange } from "./FolderLogo";

export const folderHref = (username: string, f: { slug: string }) => `/${username}/x/${f.slug}`;
const date = (ms: number) => (ms ? new Date(ms).toISOString().slice(0, 10) : "—");

/** Spec 2 folder row: logo, name, type, note count, noted-at date; an experience's role and months. */
export function FolderRow({ folder, username }: { folder: FolderJson; username: string }) {
  const range = monthRange(folder);
  return (
    <li>
      <Link to={folderHref(username, folder)} className="folder-row">
        <FolderLogo type={folder.type} logo={folder.logo} size={40} />
        <span className="folder-main">
          <strong>{folder.name}</strong>
          <small className="muted">{[folder.role, typeLabel(folder.type)].filter(Boolean).join(" · ")}</small>
          {range && <small className="muted folder-months">{range}</small>}
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
