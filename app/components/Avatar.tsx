import { Link } from "@remix-run/react";
import { profilePath } from "~/lib/url";
// Spec 9: without a picture, the avatar's colour is picked by name from a palette of 26.
export const PALETTE = [
  "#e6194b",
  "#3cb44b",
  "#c99a00",
  "#4363d8",
  "#f58231",
  "#911eb4",
  "#2a9d8f",
  "#c2185b",
  "#5d8c00",
  "#b5179e",
  "#00796b",
  "#8d6e63",
  "#7b1fa2",
  "#6d4c41",
  "#00838f",
  "#ad1457",
  "#283593",
  "#558b2f",
  "#d84315",
  "#4527a0",
  "#00695c",
  "#9e9d24",
  "#1565c0",
  "#6a1b9a",
  "#ef6c00",
  "#37474f",
];

export function avatarColor(name: string): string {
  let sum = 0;
  for (const ch of name) sum += ch.codePointAt(0) ?? 0;
  return PALETTE[sum % PALETTE.length];
}

/**
 * A person's picture, or their initial on a colour. `eager` for one above the fold (the page's first
 * note, a profile's own): a lazy image there is only asked for after the first layout, and pops in late.
 */
export function Avatar({
  name,
  src,
  size = 40,
  eager = false,
}: {
  name: string;
  src?: string;
  size?: number;
  eager?: boolean;
}) {
  const initial = (name.trim()[0] ?? "?").toUpperCase();
  if (src) {
    return (
      <img
        className="avatar"
        src={src}
        alt=""
        width={size}
        height={size}
        loading={eager ? "eager" : "lazy"}
        style={{ width: size, height: size }}
      />
    );
  }
  return (
    <span
      className="avatar"
      aria-hidden="true"
      style={{ width: size, height: size, background: avatarColor(name), fontSize: size * 0.45 }}
    >
      {initial}
    </span>
  );
}

/** A person as cards and lists show them: avatar, name and @username, linking to their profile. */
export function AuthorLink({
  user,
  size,
  eager,
}: {
  user: { username: string; fullname: string; avatar?: string };
  size: number;
  eager?: boolean;
}) {
  return (
    <Link to={profilePath(user.username)} className="author">
      <Avatar name={user.fullname} src={user.avatar} size={size} eager={eager} />
      <span>
        <strong>{user.fullname}</strong> <small>@{user.username}</small>
      </span>
    </Link>
  );
}
