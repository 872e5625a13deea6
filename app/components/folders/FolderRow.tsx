import { noun } from "~/lib/plural";
import { Link } from "@remix-run/react";
import type { FolderJson } from "../../../worker/features/folders/folders.service";
import { typeLabel } from "../../../worker/features/folders/folders.constants";
import { FolderLogo, monthRange } from "./FolderLogo";

export const folderHref = (username: string, f: { slug: string }) => `/${username}/x/${f.slug}`;
const day = (ms: number) =>
  new Date(ms).toLocaleDateString("en-GB", { day: "numeric", month: "short", year: "numeric", timeZone: "UTC" });

/**
 * A folder as a line of a CV: logo, name, role and type, then "Mar 2021 – Present · 3 notes" and
 * its description. What is not there is left out (no "0 notes", no dash); a folder without months
 * says when it was last noted in, next to its notes.
 */
export function FolderRow({ folder, username }: { folder: FolderJson; username: string }) {
  const range = monthRange(folder);
  const notes = folder.notenum > 0 ? `${folder.notenum} ${noun(folder.notenum, "note")}` : "";
  const last = !range && notes && folder.noted_at ? folder.noted_at : 0;
  return (
    <li>
      <Link to={folderHref(username, folder)} className="folder-row">
        <FolderLogo type={folder.type} logo={folder.logo} size={40} />
        <span className="folder-main">
          <strong>{folder.name}</strong>
          <small className="muted">{[folder.role, typeLabel(folder.type)].filter(Boolean).join(" · ")}</small>
          {(range || notes) && (
            <small className="muted folder-months">
              {[range, notes].filter(Boolean).join(" · ")}
              {last ? (
                <>
                  {" · last "}
                  <time dateTime={new Date(last).toISOString()}>{day(last)}</time>
                </>
              ) : null}
            </small>
          )}
          {folder.descr && <span className="folder-descr">{folder.descr}</span>}
        </span>
      </Link>
    </li>
  );
}
