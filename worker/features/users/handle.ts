// Who is where, for a person already read (the same rule as locality.ts, which decides it in SQL):
// the handle federation/remote.ts stores with a remote_actors row, Mastodon's `acct`, is
// `name@host` for a person elsewhere, while a local name never holds an "@" (users.schema.ts).
// Nothing else tests a username for "@". No imports: pages use it in the browser.

/** For a person already read: their server (`name@host` → `host`), or null when they are here. */
export const hostOf = (username: string): string | null => {
  const at = username.indexOf("@");
  return at < 0 ? null : username.slice(at + 1);
};

/** For a person already read: the name without its server (Mastodon's `username` beside `acct`). */
export const nameOf = (username: string) => {
  const host = hostOf(username);
  return host === null ? username : username.slice(0, -host.length - 1);
};

/** For a person already read: on another server. */
export const isRemoteName = (username: string) => hostOf(username) !== null;
