import type { UserJson } from "../../../worker/features/users/users.service";
import { Avatar } from "../Avatar";
import { Link } from "@remix-run/react";
import { profilePath, remoteHost } from "~/lib/url";
import { FollowButton } from "./ProfileHeader";

/**
 * The person a handle or profile URL in Search names (found on their server the first time):
 * avatar, name, handle with the server, and Follow, as their profile shows them.
 */
export function FoundPerson({ user, viewer }: { user: UserJson; viewer: UserJson | null }) {
  const host = remoteHost(user.username);
  return (
    <section className="found-person" aria-label="Account found by handle">
      <Avatar name={user.fullname} src={user.avatar} size={56} />
      <div>
        <p className="hit-head">
          <Link to={profilePath(user.username)}>
            <strong>{user.fullname}</strong>
          </Link>{" "}
          <small>@{user.username}</small>
        </p>
        {host && <p className="muted small">On {host}</p>}
        {user.descr && <p className="hit-text">{user.descr}</p>}
      </div>
      {!user.me && !user.blocking && !user.blocked_by && <FollowButton user={user} viewer={viewer} />}
    </section>
  );
}
