import { Form, Link } from "@remix-run/react";
import type { FolderJson } from "../../../worker/features/folders/folders.service";
import { typeLabel } from "../../../worker/features/folders/folders.constants";
import type { UserJson } from "../../../worker/features/users/users.service";
import { FolderRow } from "./FolderRow";

export interface FoldersTabData {
  folders: FolderJson[];
  paginator: { page: number; is_end: boolean };
  cursor: string | null;
  type: string;
  sort: "type" | "time";
}

/** The profile's X-Folders tab: filter by type (count > 0), sort by Type or Noted at, New, rows, More folders. */
export function ProfileFoldersTab({ data, user }: { data: unknown; user?: UserJson }) {
  const d = data as FoldersTabData | null;
  if (!d || !user) return <p className="empty">No folders yet</p>;
  const types = Object.entries(user.types).filter(([, n]) => n > 0);
  const more = new URLSearchParams({
    page: String(d.paginator.page + 1),
    sort: d.sort,
    ...(d.type ? { type: d.type } : {}),
    ...(d.cursor ? { cursor: d.cursor } : {}),
  });
  return (
    <div>
      <Form method="get" className="folder-controls" preventScrollReset>
        <label>
          Filter{" "}
          <select name="type" defaultValue={d.type} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
            <option value="">All type</option>
            {types.map(([t, n]) => (
              <option key={t} value={t}>
                {typeLabel(t)} ({n})
              </option>
            ))}
          </select>
        </label>
        <label>
          Sort by{" "}
          <select name="sort" defaultValue={d.sort} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
            <option value="type">Type</option>
            <option value="time">Noted at</option>
          </select>
        </label>
        {/* With JavaScript a choice applies at once; without it, Apply sends the form. */}
        <noscript>
          <button type="submit" className="btn small">
            Apply
          </button>
        </noscript>
        {user.me && (
          <Link to="?dialog=folder" className="btn primary small" preventScrollReset>
            New
          </Link>
        )}
      </Form>
      {d.folders.length === 0 ? (
        <div className="empty">
          <p>No folders yet</p>
          {user.me && !d.type && (
            <p>
              X-folders are your portfolio: a job, a school, a project, a skill, with the notes that tell its story.{" "}
              <Link to="?dialog=folder" preventScrollReset>
                Create your first x-folder
              </Link>
            </p>
          )}
        </div>
      ) : (
        <ul className="folder-list">
          {d.folders.map((f) => (
            <FolderRow key={f.id} folder={f} username={user.username} />
          ))}
        </ul>
      )}
      {!d.paginator.is_end && (
        <div className="more">
          <Link to={`/${user.username}?${more}`}>More folders</Link>
        </div>
      )}
    </div>
  );
}
