// One search result of each kind, as the tabs and the Top view list them.
import { Link } from "@remix-run/react";
import type { FolderHit, NoteHit, ReplyHit, Snippet } from "../../../worker/features/search/search.service";
import type { UserHit } from "../../../worker/features/search/search.people";
import { Avatar } from "../Avatar";
import { profilePath } from "~/lib/url";
import { relativeTime } from "~/lib/time";

/** Matched runs (odd indexes) as <mark>; every run is text, never markup. */
function Highlighted({ runs }: { runs: Snippet }) {
  return <>{runs.map((run, i) => (i % 2 ? <mark key={i}>{run}</mark> : run))}</>;
}

function Hit({
  href,
  user,
  at,
  children,
}: {
  href: string;
  user: { username: string; fullname: string; avatar: string };
  at?: number;
  children: React.ReactNode;
}) {
  return (
    <li className="hit">
      <Avatar name={user.fullname} src={user.avatar} size={40} />
      <div>
        <p className="hit-head">
          <strong>{user.fullname}</strong> <small>@{user.username}</small>
          {at ? (
            <small suppressHydrationWarning>
              {" · "}
              {relativeTime(at)}
            </small>
          ) : null}
        </p>
        <Link to={href} className="hit-body">
          {children}
        </Link>
      </div>
    </li>
  );
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export const PersonHits = ({ users }: { users: UserHit[] }) =>
  users.map((u) => (
    <Hit key={u.id} href={profilePath(u.username)} user={u}>
      {u.descr || `@${u.username}`}
    </Hit>
  ));

export const FolderHits = ({ folders }: { folders: FolderHit[] }) =>
  folders.map((f) => (
    <Hit key={f.id} href={`/${f.user.username}/x/${f.slug}`} user={f.user}>
      <strong className="hit-title">
        <Highlighted runs={f.name_hl} />
      </strong>{" "}
      <small className="muted">{f.type}</small>
      {f.descr && (
        <span className="hit-text">
          <Highlighted runs={f.snippet} />
        </span>
      )}
    </Hit>
  ));

export const ReplyHits = ({ replies }: { replies: ReplyHit[] }) =>
  replies.map((r) => (
    <Hit key={r.id} href={`/${r.user.username}/rep/${r.id}`} user={r.user} at={r.created_at}>
      <span className="hit-text">
        <Highlighted runs={r.snippet} />
      </span>
    </Hit>
  ));

export const NoteHits = ({ notes }: { notes: NoteHit[] }) =>
  notes.map((n) => (
    <Hit key={n.id} href={`/${n.user.username}/note/${n.id}`} user={n.user} at={n.created_at}>
      <span className="hit-text">
        <Highlighted runs={n.snippet} />
      </span>
      <small className="muted hit-meta">
        {[n.label, count(n.likenum, "like", "likes"), count(n.repnum, "reply", "replies")].filter(Boolean).join(" · ")}
      </small>
    </Hit>
  ));
