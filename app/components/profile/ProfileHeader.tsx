import { noun } from "~/lib/plural";
import { Link, useFetcher, useLocation, useRouteLoaderData } from "@remix-run/react";
import type { UserJson } from "../../../worker/features/users/users.service";
import { dialogHref } from "~/lib/scroll";
import { profilePath, remoteHost, webLink } from "~/lib/url";
import { Avatar, AuthorLink } from "../Avatar";
import { Dialog } from "../Dialog";
import { PersonActionForm } from "../PersonActionForm";
import { SafetyItems } from "../safety/SafetyMenu";
import { RssLink } from "../RssLink";
import { CopyButton } from "../CopyButton";
import { ProfileAbout } from "./ProfileAbout";

export interface FollowUser {
  id: number;
  username: string;
  fullname: string;
  avatar: string;
  following: boolean;
}

/**
 * Follow, or Following with an Unfollow dropdown. A visitor's Follow asks how: with a NoteX account
 * (log in, sign up) or from their own server (RemoteFollow.tsx); someone elsewhere's, to log in.
 */
export function FollowButton({ user, viewer }: { user: UserJson; viewer: UserJson | null }) {
  const fetcher = useFetcher<{ ok: boolean; data?: { following: boolean; requested?: boolean } }>();
  const location = useLocation();
  if (!viewer) {
    return (
      <Link
        to={dialogHref(location, remoteHost(user.username) ? "login" : "follow")}
        className="btn primary"
        preventScrollReset
      >
        Follow
      </Link>
    );
  }
  const answered = fetcher.data?.ok && fetcher.data.data ? fetcher.data.data : null;
  const following = answered ? answered.following : user.following;
  // A locked account elsewhere approves followers by hand: the follow waits as a request.
  const requested = answered ? !!answered.requested : user.requested;
  const form = (intent: "follow" | "unfollow", label: string, className: string) => (
    <PersonActionForm
      fetcher={fetcher}
      action="/actions/follow"
      uid={user.id}
      intent={intent}
      label={label}
      className={className}
      formClassName="inline"
    />
  );
  if (requested)
    return (
      <details className="menu follow-menu">
        <summary className="btn">Requested</summary>
        <ul>
          <li>{form("unfollow", "Cancel request", "")}</li>
        </ul>
      </details>
    );
  if (!following) return form("follow", "Follow", "btn primary");
  return (
    <details className="menu follow-menu">
      <summary className="btn">Following</summary>
      <ul>
        <li>{form("unfollow", "Unfollow", "")}</li>
      </ul>
    </details>
  );
}

export function FollowListDialog({ title, users }: { title: string; users: FollowUser[] }) {
  return (
    <Dialog title={title}>
      {users.length === 0 ? (
        <p className="empty">No one yet</p>
      ) : (
        <ul className="user-list">
          {users.map((u) => (
            <li key={u.id}>
              <AuthorLink user={u} size={36} />
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}

// React 18 has no fetchPriority prop (it warns and renders it as written): the lowercase attribute.
const HIGH = { fetchpriority: "high" } as Record<string, string>;

/** Someone's fediverse handle: `@name@host`, this site's host for a person here. */
export function useFediHandle(username: string) {
  const origin = useRouteLoaderData<{ origin: string }>("root")?.origin;
  if (remoteHost(username) || !origin) return `@${username}`;
  return `@${username}@${new URL(origin).host}`;
}

export function ProfileHeader({ user, viewer }: { user: UserJson; viewer?: UserJson | null }) {
  const location = useLocation();
  const s = user.stats;
  const host = remoteHost(user.username);
  const remote = host ? { host, url: webLink(user.remote_url) } : null;
  const handle = useFediHandle(user.username);
  return (
    <header className="profile-head">
      {user.cover ? (
        // An image, not a CSS background: the browser finds it in the HTML before any style runs
        // and fetches it first, as it is usually the profile's largest paint.
        <img className="cover" src={user.cover} alt="" width={900} height={300} {...HIGH} />
      ) : (
        <div className="cover" />
      )}
      <div className="profile-id">
        <Avatar name={user.fullname} src={user.avatar} size={88} eager />
        <div className="profile-actions">
          {user.me ? (
            <>
              <Link to={`/${user.username}?as=visitor`} className="btn">
                See as visitor
              </Link>
              <Link to={dialogHref(location, "edit-profile")} className="btn" preventScrollReset>
                Edit Profile
              </Link>
            </>
          ) : user.blocking || user.blocked_by ? null : (
            <FollowButton user={user} viewer={viewer ?? null} />
          )}
          {!user.me && viewer && (
            <details className="menu profile-menu">
              <summary aria-label="Profile menu" className="btn">
                ⋯
              </summary>
              <ul>
                <SafetyItems user={user} />
              </ul>
            </details>
          )}
        </div>
      </div>
      <h1>{user.fullname}</h1>
      {/* The whole handle, as Mastodon shows it: what someone elsewhere searches for to follow. */}
      <p className="muted handle">
        <span className="fedi-handle">{handle}</span>
        <CopyButton label="Copy" text={() => handle} className="copy-handle" />
        {user.muting && <span className="pill">Muted</span>}
      </p>
      {user.headline && <p className="headline">{user.headline}</p>}
      {user.descr && <p className="descr">{user.descr}</p>}
      <ProfileAbout user={user} />
      {remote && (
        <p className="remote-origin">
          <span className="muted">On another server, {remote.host}. </span>
          {remote.url && (
            <a href={remote.url} rel="noopener noreferrer nofollow" target="_blank">
              View on {remote.host}
            </a>
          )}
        </p>
      )}
      <p className="stats">
        {/* Whom someone elsewhere follows is known only on their server. */}
        {!remote && (
          <Link to={dialogHref(location, "following")} preventScrollReset>
            <strong>{s.following}</strong> following
          </Link>
        )}
        <Link to={dialogHref(location, "followers")} preventScrollReset>
          <strong>{s.follower}</strong> {noun(s.follower, "follower")}
        </Link>
        <Link to={remote ? profilePath(user.username) : `/${user.username}?t=notes`}>
          <strong>{s.note}</strong> {noun(s.note, "note")}
        </Link>
        {!remote && <RssLink href={`/${user.username}/rss`} label={`RSS feed of @${user.username}'s notes`} />}
      </p>
      {user.moved_to && (
        <p className="notice moved" role="status">
          @{user.username} has moved to <Link to={profilePath(user.moved_to)}>@{user.moved_to}</Link>.
        </p>
      )}
      {user.moved_from && !user.moved_to && (
        <p className="muted moved-from">
          Moved here from <Link to={profilePath(user.moved_from)}>@{user.moved_from}</Link>.
        </p>
      )}
      {user.blocked_by && (
        <p className="notice flag" role="status">
          @{user.username} has blocked you. You cannot follow them or see their notes.
        </p>
      )}
      {user.muting && !user.blocking && (
        <p className="notice" role="status">
          You have muted @{user.username}. Their notes, renotes and replies stay out of your feeds and notifications;
          they are not told.
        </p>
      )}
      {user.blocking && (
        <p className="notice flag" role="status">
          You have blocked @{user.username}. They cannot follow you or see your notes; theirs are hidden from you.
        </p>
      )}
    </header>
  );
}
