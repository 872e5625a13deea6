import { Link } from "@remix-run/react";
import Repeat2 from "lucide-react/icons/repeat-2";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";
import { Ago } from "../Ago";
import { Avatar } from "../Avatar";
import { NoteActions } from "../social/NoteActions";
import { NoteMenu } from "./NoteMenu";

export const noteHref = (n: NoteJson) => `/${n.user.username}/note/${n.id}`;

function Images({ imgs }: { imgs: string }) {
  const list = imgs.split(";").filter(Boolean);
  if (!list.length) return null;
  const shown = list.slice(0, 4);
  return (
    <div className={`images n${shown.length}`}>
      {shown.map((src, i) => (
        <a key={src} href={src} className="image">
          <img src={src} alt="" loading="lazy" width={480} height={480} />
          {i === 3 && list.length > 4 && <span className="overflow">+{list.length - 4}</span>}
        </a>
      ))}
    </div>
  );
}

export function Video({ id }: { id: string }) {
  if (!id) return null;
  return (
    <div className="video">
      <iframe
        src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(id)}`}
        title="YouTube video"
        loading="lazy"
        allow="accelerometer; encrypted-media; gyroscope; picture-in-picture"
        allowFullScreen
        width={560}
        height={315}
      />
    </div>
  );
}

function Body({ note, detail }: { note: NoteJson; detail: boolean }) {
  return (
    <>
      {/* Content was sanitised with an allow-list when it was written (worker/lib/sanitize.ts). */}
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on write / constant string */}
      <div className={`content${detail ? " detail" : ""}`} dangerouslySetInnerHTML={{ __html: note.content }} />
      <Video id={note.video} />
      <Images imgs={note.imgs} />
    </>
  );
}

function Head({ note }: { note: NoteJson }) {
  return (
    <header className="note-head">
      <Link to={`/${note.user.username}`} className="author">
        <Avatar name={note.user.fullname} src={note.user.avatar} size={40} />
        <span>
          <strong>{note.user.fullname}</strong> <small>@{note.user.username}</small>
        </span>
      </Link>
      <Link to={noteHref(note)} className="time" title={new Date(note.created_at).toISOString()}>
        <Ago ms={note.created_at} />
      </Link>
    </header>
  );
}

/** A quoted note, embedded and compact. */
function Quoted({ note }: { note: NoteJson | null }) {
  if (!note) return <p className="quoted muted">This note is no longer available.</p>;
  return (
    <Link to={noteHref(note)} className="quoted">
      <strong>{note.user.fullname}</strong> <small>@{note.user.username}</small>
      <span className="quoted-text">{note.txt}</span>
    </Link>
  );
}

export function NoteCard({
  note,
  viewer,
  detail = false,
}: {
  note: NoteJson;
  viewer: UserJson | null;
  detail?: boolean;
}) {
  // Spec 2: a renote with empty text is shown as the original note, attributed to the renoter.
  if (note.kind === "renote") {
    if (!note.renote) return null;
    return (
      <div className="renoted">
        <p className="renoted-by">
          <Repeat2 size={16} /> renoted by <Link to={`/${note.user.username}`}>{note.user.fullname}</Link>
        </p>
        <NoteCard note={note.renote} viewer={viewer} detail={detail} />
      </div>
    );
  }
  return (
    <article className="note" aria-label={`Note by ${note.user.fullname}`}>
      <Head note={note} />
      {note.label && (
        <Link className="label" to={`/${note.user.username}?t=notes&l=${encodeURIComponent(note.label)}`}>
          {note.label}
        </Link>
      )}
      <Body note={note} detail={detail} />
      {note.kind === "quote" && <Quoted note={note.renote} />}
      {note.folders.length > 0 && (
        <ul className="folder-tags">
          {note.folders.map((f) => (
            <li key={f.id}>
              <Link to={`/${note.user.username}/x/${f.slug}`}>{f.name}</Link>
            </li>
          ))}
        </ul>
      )}
      <footer className="note-foot">
        <NoteActions note={note} viewer={viewer} />
        <NoteMenu note={note} viewer={viewer} />
      </footer>
    </article>
  );
}
