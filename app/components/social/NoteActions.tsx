import { Link, useFetcher, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import type { NoteJson } from "../../../worker/features/notes/notes.types";
import type { UserJson } from "../../../worker/features/users/users.service";
import { useCounts } from "~/lib/counts";
import { useSerialToggle } from "~/lib/toggle";
import { dialogHref } from "~/lib/scroll";
import { ToggleForm } from "./ToggleForm";
import { Icon } from "../Icon";

/**
 * A counter control's content: the icon for the eye, "Like 3" for the ear. The name is made of
 * the visible number plus a hidden word (no aria-label), so what is seen is part of what is heard.
 */
export function Counted({ icon, label, n }: { icon: ReactNode; label: string; n: number }) {
  return (
    <>
      {icon}
      <span className="sr-only">{label} </span>
      {n}
    </>
  );
}

/** The counters' icons (lucide, hidden from the ear: the counter names itself). */
export const ReplyIcon = <Icon name="message-circle" size={18} />;
const RenoteIcon = <Icon name="repeat-2" size={18} />;
const heart = (filled: boolean) => <Icon name="heart" size={18} filled={filled} />;

/** A visitor's stand-in for an account-only control: it opens the login dialog. */
export function LoginLink({ icon, label, n }: { icon: ReactNode; label: string; n: number }) {
  const location = useLocation();
  return (
    <Link to={dialogHref(location, "login")} className="act" preventScrollReset>
      <Counted icon={icon} label={label} n={n} />
    </Link>
  );
}

/**
 * Spec 4: like toggles optimistically (±1) and then shows what the server answers; a failure is
 * not rolled back. Quick clicks send one request at a time (lib/toggle.ts). For notes and replies
 * alike (kind); `item` is the note or reply the counts came with, and a later answer about the
 * same one anywhere on the page wins (app/lib/counts.ts).
 */
export function LikeButton({
  kind,
  item,
  viewer,
}: {
  kind: "note" | "reply";
  item: { id: number; liked: boolean; likenum: number };
  viewer: UserJson | null;
}) {
  const fetcher = useFetcher<{ ok: boolean; data?: { liked: boolean; likenum: number } }>();
  const now = useCounts(kind, item.id, item, { liked: item.liked, likenum: item.likenum });
  const toggle = useSerialToggle(fetcher, now.liked, (d) => d.data?.liked, true);
  if (!viewer) return <LoginLink icon={heart(false)} label="Like" n={item.likenum} />;
  const liked = toggle.shown;
  const count = now.likenum + (liked === now.liked ? 0 : liked ? 1 : -1);
  return (
    // A note is what the action assumes (lib/actions.server contentKind): one field fewer a card.
    <ToggleForm
      of="like"
      fetcher={fetcher}
      toggle={toggle}
      className="inline"
      id={item.id}
      t={kind !== "note" ? kind : undefined}
    >
      <button type="submit" className={`act${liked ? " on" : ""}`} aria-pressed={liked}>
        <Counted icon={heart(liked)} label={liked ? "Unlike" : "Like"} n={count} />
      </button>
    </ToggleForm>
  );
}

function RenoteMenu({ note, viewer }: { note: NoteJson; viewer: UserJson | null }) {
  const fetcher = useFetcher<{ ok: boolean; data?: { renoted: boolean; renum: number } }>();
  const location = useLocation();
  const now = useCounts("note", note.id, note, { renoted: note.renoted, renum: note.renum });
  const toggle = useSerialToggle(fetcher, now.renoted, (d) => d.data?.renoted);
  if (!viewer) {
    return <LoginLink icon={RenoteIcon} label="Renote" n={note.renum} />;
  }
  const renoted = toggle.shown;
  const renum = now.renum + (renoted === now.renoted ? 0 : renoted ? 1 : -1);
  return (
    <details className="menu renote-menu">
      <summary className={`act${renoted ? " on" : ""}`}>
        <Counted icon={RenoteIcon} label="Renote menu" n={renum} />
      </summary>
      <ul>
        <li>
          <ToggleForm of="renote" fetcher={fetcher} toggle={toggle} id={note.id} inMenu>
            <button type="submit">{renoted ? "Undo renote" : "Renote"}</button>
          </ToggleForm>
        </li>
        <li>
          <Link to={dialogHref(location, "quote", { id: note.id })} preventScrollReset>
            Quote
          </Link>
        </li>
      </ul>
    </details>
  );
}

export function NoteActions({ note, viewer }: { note: NoteJson; viewer: UserJson | null }) {
  return (
    <div className="note-actions">
      <Link to={`/${note.user.username}/note/${note.id}#replies`} className="act">
        <Counted icon={ReplyIcon} label="Replies" n={note.repnum} />
      </Link>
      <RenoteMenu note={note} viewer={viewer} />
      <LikeButton kind="note" item={note} viewer={viewer} />
    </div>
  );
}
