// The shape of an @mention, shared by the server (which links it on save) and the composer (which
// suggests people while one is typed), so both read the same characters as a username.

/** A username: a letter, then 4 to 33 letters, digits or underscores (the spec's username shape). */
const NAME = "[A-Za-z][A-Za-z0-9_]";
/** What may stand before the @: not a word character, a slash, a dot or another @ (not an email, not a URL path). */
const BEFORE = "(^|[^A-Za-z0-9_/.@])";

/** @username in text, global: group 1 the character before, group 2 the name (not one followed by @host). */
export const MENTION = new RegExp(`${BEFORE}@(${NAME}{4,33})(?![A-Za-z0-9_@])`, "g");

/**
 * @name@host in text (someone on another server), global: group 1 the character before, group 2
 * `name@host`. Names as Mastodon, Misskey and GoToSocial allow them; the host is a domain (or, for
 * local instances on loopback, an address with a port), never ending in a dot.
 */
export const REMOTE_MENTION =
  /(^|[^A-Za-z0-9_/.@])@((?:[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,62}[A-Za-z0-9_])?)@(?:[A-Za-z0-9-]{1,63}\.)*[A-Za-z0-9-]{1,63}(?::\d{1,5})?)(?![A-Za-z0-9_@-])/g;

/** An @mention being typed, ending at the caret: group 2 the name so far (one letter or more). */
export const MENTION_TYPING = new RegExp(`${BEFORE}@(${NAME}{0,33})$`);
