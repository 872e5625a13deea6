import type { UserJson } from "../../../worker/features/users/users.service";
import { Icon } from "../Icon";

/** A link as people read it: the address without its scheme or a trailing slash. */
const shown = (url: string) => url.replace(/^https?:\/\//, "").replace(/\/$/, "");

/**
 * What a profile says about the person beyond the bio, as a CV's header does: their headline, where
 * they are, and their links. A link their page confirms (it links back here with rel="me", as
 * Mastodon checks) carries a check mark; every link is rel="me" itself, so the check works both ways.
 */
export function ProfileAbout({ user }: { user: UserJson }) {
  const links = user.links ?? [];
  if (!user.location && !links.length) return null;
  return (
    <ul className="profile-about">
      {user.location && (
        <li>
          <Icon name="map-pin" size={16} />
          <span>{user.location}</span>
        </li>
      )}
      {links.map((l) => (
        <li key={l.value} className={l.verified_at ? "verified" : undefined}>
          <Icon name="link" size={16} />
          {l.name && <span className="muted">{l.name}</span>}
          <a href={l.value} rel="me nofollow noopener noreferrer" target="_blank">
            {shown(l.value)}
          </a>
          {l.verified_at && (
            <span className="verified-mark" title={`Verified ${l.verified_at.slice(0, 10)}`}>
              <Icon name="badge-check" size={16} />
              <span className="sr-only">Verified: this page links back to the profile</span>
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}
