// The search's first view, as Bluesky's and LinkedIn's "Top": a few of each kind, people first
// when a name matches (a surname finds the person before any note), then notes, tags and folders,
// each with a link to its whole tab.
import { Link } from "@remix-run/react";
import type { FolderHit, NoteHit } from "../../../worker/features/search/search.service";
import type { UserHit } from "../../../worker/features/search/search.people";
import { FolderHits, NoteHits, PersonHits } from "./SearchHits";

export interface TopResults {
  users: UserHit[];
  notes: NoteHit[];
  tags: string[];
  folders: FolderHit[];
}

/** How many of each kind the Top view shows before "See all". */
export const TOP_SHOWN = { users: 3, notes: 5, folders: 3 } as const;

function Section({ id, title, all, children }: { id: string; title: string; all?: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="top-section">
      <h2 id={id}>{title}</h2>
      {children}
      {all && (
        <Link to={all} className="see-all">
          See all {title.toLowerCase()}
        </Link>
      )}
    </section>
  );
}

export function SearchTop({
  top,
  more,
}: {
  top: TopResults;
  more: (t: "users" | "notes" | "folders") => string | undefined;
}) {
  return (
    <div className="search-top">
      {top.users.length > 0 && (
        <Section id="top-people" title="People" all={more("users")}>
          <ul className="hits">
            <PersonHits users={top.users} />
          </ul>
        </Section>
      )}
      {top.notes.length > 0 && (
        <Section id="top-notes" title="Notes" all={more("notes")}>
          <ul className="hits">
            <NoteHits notes={top.notes} />
          </ul>
        </Section>
      )}
      {top.tags.length > 0 && (
        <Section id="top-tags" title="Tags">
          <ul className="tag-hits">
            {top.tags.map((t) => (
              <li key={t}>
                <Link to={`/tag/${encodeURIComponent(t)}`} className="tag-chip">
                  #{t}
                </Link>
              </li>
            ))}
          </ul>
        </Section>
      )}
      {top.folders.length > 0 && (
        <Section id="top-folders" title="Folders" all={more("folders")}>
          <ul className="hits">
            <FolderHits folders={top.folders} />
          </ul>
        </Section>
      )}
    </div>
  );
}
