import { Link, useLocation } from "@remix-run/react";
import { profilePath } from "~/lib/url";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";
import { Ago } from "../Ago";
import { AuthorLink } from "../Avatar";
import { NoteActions } from "../social/NoteActions";
import { booted } from "~/lib/hydrated";
import { dialogHref } from "~/lib/scroll";
import { Icon } from "../Icon";
import { Video } from "./Video";
import { pictureBox } from "~/lib/picture";

export const noteHref = (n: NoteJson) => `/${n.user.username}/note/${n.id}`;

// The lightbox loads with the first image opened, not with the page.
const Lightbox = lazy(() => import("./Lightbox"));
// The ⋯ menu's entries (edit, copy, save, report, mute, block) load after the first paint (issue 22
// budget); see MenuSlot for what the server's HTML has in their place.
const NoteMenu = lazy(() => import("./NoteMenu").then((m) => ({ default: m.NoteMenu })));

/**
 * A card's ⋯ menu. Signed in, the server's HTML has one link to the menu as a dialog
 * (?dialog=note-menu&id=, whose forms work without JavaScript) instead of the menu's forms on every
 * card (issue 19: ~1.4 KB a card, most of a feed's forms); once the page runs, the same button opens
 * the dropdown, which loads after the first paint (a click before it has loaded opens it when it
 * arrives). A visitor's menu is links only and stays in the HTML as a <details>.
 */
function MenuSlot({ note, viewer }: { note: NoteJson; viewer: UserJson | null }) {
  const location = useLocation();
  // Server and hydration render the link; a card mounted later (a next page, a client navigation) is live at once.
  const [live, setLive] = useState(booted);
  const [asked, setAsked] = useState(false);
  // Only a signed-in card changes here: a visitor's menu is still hydrating inside its boundary,
  // and an update there would make React render it again from scratch (error #421).
  useEffect(() => {
    if (viewer) setLive(true);
  }, [viewer]);
  const link = (
    <Link
      to={dialogHref(location, "note-menu", { id: note.id })}
      className="menu-link"
      aria-label="Note menu"
      preventScrollReset
      onClick={(e) => {
        if (!live) return;
        e.preventDefault();
        setAsked(true);
      }}
    >
      <Icon name="ellipsis" size={20} />
    </Link>
  );
  if (viewer && !live) return link;
  return (
    <Suspense fallback={viewer ? link : null}>
      <NoteMenu note={note} viewer={viewer} open={asked} />
    </Suspense>
  );
}

// React 18 has no fetchPriority prop (it warns and renders it as written): the lowercase attribute.
const FIRST = { fetchpriority: "high" } as Record<string, string>;

/**
 * Spec 2: one to four images shown, +N for the rest; each opens the lightbox (or, without JS, the
 * file). The page's first note (`lead`) is above the fold: its pictures load at once, the first with
 * high priority, since it is usually the page's largest paint; every other picture waits until it
 * nears the screen.
 */
function Images({
  images,
  alts,
  dims,
  lead,
  whole,
}: {
  images: string[];
  alts: string[];
  dims: NoteJson["dims"];
  lead: boolean;
  whole: boolean;
}) {
  const [open, setOpen] = useState<number | null>(null);
  const list = images.map((src, i) => ({ src, alt: alts[i] ?? "", dims: dims[i] ?? null }));
  if (!list.length) return null;
  const shown = list.slice(0, 4);
  return (
    // On the note's own page each picture is shown whole; in a list, a crop that keeps its centre.
    <div className={`images n${shown.length}${whole ? " whole" : ""}`}>
      {shown.map((img, i) => (
        <a
          key={img.src}
          href={img.src}
          className="image"
          // A link around an image without alt text still needs a name (axe link-name).
          aria-label={img.alt || `Open image ${i + 1} of ${list.length}`}
          onClick={(e) => {
            e.preventDefault();
            setOpen(i);
          }}
        >
          <img
            src={img.src}
            alt={img.alt}
            loading={lead ? "eager" : "lazy"}
            {...(lead && i === 0 ? FIRST : {})}
            {...pictureBox(img.dims)}
          />
          {i === 3 && list.length > 4 && (
            <span className="overflow">
              +{list.length - 4}
              <span className="sr-only"> more images</span>
            </span>
          )}
        </a>
      ))}
      {open !== null && (
        <Suspense fallback={null}>
          <Lightbox images={list} start={open} onClose={() => setOpen(null)} />
        </Suspense>
      )}
    </div>
  );
}

/** About how many lines a text takes in a list column: long notes collapse (issue 22). */
const COLLAPSE_LINES = 12;
const isLong = (txt: string) =>
  txt.split("\n").reduce((lines, l) => lines + Math.max(1, Math.ceil(l.length / 45)), 0) > COLLAPSE_LINES;

/**
 * A long note in a list: clamped to 12 lines by CSS with a Show more link to the note page; with
 * JavaScript the link becomes a toggle in place, or goes away when the text fits after all.
 */
function Collapsible({ html, href }: { html: string; href: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const id = useId();
  const [state, setState] = useState<"link" | "fits" | "closed" | "open">("link");
  useEffect(() => {
    const el = ref.current;
    if (el) setState(el.scrollHeight > el.clientHeight + 1 ? "closed" : "fits");
  }, []);
  return (
    <>
      <div
        ref={ref}
        id={id}
        className={`content${state === "link" || state === "closed" ? " clamp" : ""}`}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on write (worker/lib/sanitize.ts)
        dangerouslySetInnerHTML={{ __html: html }}
      />
      {state === "link" && (
        <Link to={href} className="show-more">
          Show more
        </Link>
      )}
      {(state === "closed" || state === "open") && (
        <button
          type="button"
          className="show-more"
          aria-expanded={state === "open"}
          aria-controls={id}
          onClick={() => setState(state === "open" ? "closed" : "open")}
        >
          {state === "open" ? "Show less" : "Show more"}
        </button>
      )}
    </>
  );
}

function Body({ note, detail, lead }: { note: NoteJson; detail: boolean; lead: boolean }) {
  return (
    <>
      {!detail && isLong(note.txt) ? (
        <Collapsible html={note.content} href={noteHref(note)} />
      ) : (
        // Content was sanitised with an allow-list when it was written (worker/lib/sanitize.ts).
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on write
        <div className={`content${detail ? " detail" : ""}`} dangerouslySetInnerHTML={{ __html: note.content }} />
      )}
      <Video id={note.video} />
      <Images images={note.images} alts={note.alts ?? []} dims={note.dims ?? []} lead={lead} whole={detail} />
    </>
  );
}

/** The host of an imported note's original, as its link reads ("from mastodon.social"). */
const hostOf = (url: string) => url.replace(/^https?:\/\/([^/]+).*$/, "$1");

function Head({ note, detail, lead }: { note: NoteJson; detail: boolean; lead: boolean }) {
  return (
    <header className="note-head">
      <AuthorLink user={note.user} size={40} eager={lead} />
      <span className="when">
        <Link to={noteHref(note)} className="time" title={new Date(note.created_at).toISOString()}>
          <Ago ms={note.created_at} />
        </Link>
        {detail && note.edited_at && (
          <Link to={`${noteHref(note)}/history`} className="edited" title="See earlier versions">
            edited
          </Link>
        )}
        {note.origin_url && (
          <a
            href={note.origin_url}
            className="edited"
            rel="noopener noreferrer nofollow"
            title="Where this was first published"
          >
            from {hostOf(note.origin_url)}
          </a>
        )}
      </span>
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
  lead = detail,
}: {
  note: NoteJson;
  viewer: UserJson | null;
  detail?: boolean;
  /** The page's first note, above the fold (a note's own page: its note). */
  lead?: boolean;
}) {
  // Spec 2: a renote with empty text is shown as the original note, attributed to the renoter.
  if (note.kind === "renote") {
    if (!note.renote) return null;
    return (
      <div className="renoted">
        <p className="renoted-by">
          <Icon name="repeat-2" size={16} /> renoted by{" "}
          <Link to={profilePath(note.user.username)}>{note.user.fullname}</Link>
        </p>
        <NoteCard note={note.renote} viewer={viewer} detail={detail} lead={lead} />
      </div>
    );
  }
  return (
    <article className="note" aria-label={`Note by ${note.user.fullname}`}>
      {note.hidden && (
        <p className="notice flag" role="status">
          Hidden by the moderators. Only {note.user.me ? "you" : "its author"} and the moderators can see this note.
        </p>
      )}
      <Head note={note} detail={detail} lead={lead} />
      {note.label && (
        <Link className="label" to={`${profilePath(note.user.username)}?t=notes&l=${encodeURIComponent(note.label)}`}>
          {note.label}
        </Link>
      )}
      <Body note={note} detail={detail} lead={lead} />
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
        <MenuSlot note={note} viewer={viewer} />
      </footer>
    </article>
  );
}
