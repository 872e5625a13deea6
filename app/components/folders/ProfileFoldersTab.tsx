import { Form, Link } from "@remix-run/react";
import type { FolderJson } from "../../../worker/features/folders/folders.service";
import { CV_SECTIONS, cvSection, typeLabel } from "../../../worker/features/folders/folders.constants";
import type { UserJson } from "../../../worker/features/users/users.service";
import { FolderRow } from "./FolderRow";
import { MoreLink } from "../MoreLink";

export interface FoldersTabData {
  folders: FolderJson[];
  paginator: { page: number; is_end: boolean };
  cursor: string | null;
  type: string;
  sort: "type" | "time";
  /** list: the spec's rows; cv: the same rows in sections, as a CV reads. */
  view: "list" | "cv";
}

/** The folders in CV sections (Experience, Education, …, Other), in the order the API gave them. */
function cvSections(folders: FolderJson[]) {
  const titles = [...CV_SECTIONS.map((s) => s.title), "Other"];
  const groups = new Map<string, FolderJson[]>();
  for (const f of folders) {
    const i = cvSection(f.type);
    const title = titles[i < 0 ? titles.length - 1 : i];
    groups.set(title, [...(groups.get(title) ?? []), f]);
  }
  return titles.filter((t) => groups.has(t)).map((title) => ({ title, folders: groups.get(title) ?? [] }));
}

/**
 * The profile's Portfolio tab (its x-folders): filter by type (count > 0), sort by Type or Noted at, or shown as a
 * CV (sections by kind of experience); New, rows, More folders.
 */
export function ProfileFoldersTab({ data, user }: { data: unknown; user?: UserJson }) {
  const d = data as FoldersTabData | null;
  if (!d || !user) return <p className="empty">No folders yet</p>;
  const types = Object.entries(user.types).filter(([, n]) => n > 0);
  const cv = d.view === "cv";
  const keep = (extra: Record<string, string>) =>
    new URLSearchParams({ ...(d.type ? { type: d.type } : {}), ...extra });
  const more = keep({
    page: String(d.paginator.page + 1),
    ...(cv ? { view: "cv" } : { sort: d.sort }),
    ...(d.cursor ? { cursor: d.cursor } : {}),
  });
  const base = `/${user.username}`;
  return (
    <div>
      <Form method="get" className="folder-controls" preventScrollReset>
        {cv && <input type="hidden" name="view" value="cv" />}
        <label>
          Filter{" "}
          <select name="type" defaultValue={d.type} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
            <option value="">All types</option>
            {types.map(([t, n]) => (
              <option key={t} value={t}>
                {typeLabel(t)} ({n})
              </option>
            ))}
          </select>
        </label>
        {!cv && (
          <label>
            Sort by{" "}
            <select name="sort" defaultValue={d.sort} onChange={(e) => e.currentTarget.form?.requestSubmit()}>
              <option value="type">Type</option>
              <option value="time">Noted at</option>
            </select>
          </label>
        )}
        {/* With JavaScript a choice applies at once; without it, Apply sends the form. */}
        <noscript>
          <button type="submit" className="btn small">
            Apply
          </button>
        </noscript>
        <nav className="view-switch" aria-label="Show folders as">
          <Link to={`${base}?${keep({ sort: d.sort })}`} aria-current={cv ? undefined : "page"} preventScrollReset>
            List
          </Link>
          <Link to={`${base}?${keep({ view: "cv" })}`} aria-current={cv ? "page" : undefined} preventScrollReset>
            CV
          </Link>
        </nav>
        {/* The portfolio to take elsewhere: a page to print or save as PDF, and JSON Resume. */}
        <span className="cv-links">
          <Link to={`${base}/cv`}>Printable CV</Link>
          <a href={`${base}/resume.json`} type="application/json">
            JSON Resume
          </a>
        </span>
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
      ) : cv ? (
        cvSections(d.folders).map((s) => (
          <section key={s.title} className="cv-section" aria-label={s.title}>
            <h3>{s.title}</h3>
            <ul className="folder-list">
              {s.folders.map((f) => (
                <FolderRow key={f.id} folder={f} username={user.username} />
              ))}
            </ul>
          </section>
        ))
      ) : (
        <ul className="folder-list">
          {d.folders.map((f) => (
            <FolderRow key={f.id} folder={f} username={user.username} />
          ))}
        </ul>
      )}
      {!d.paginator.is_end && <MoreLink to={`${base}?${more}`}>More folders</MoreLink>}
    </div>
  );
}
