// The shape of an @mention, shared by the server (which links it on save) and the composer (which
// suggests people while one is typed), so both read the same characters as a username.

/** A username: a letter, then 4 to 33 letters, digits or underscores (the spec's username shape). */
const NAME = "[A-Za-z][A-Za-z0-9_]";
/** What may stand before the @: not a word character, a slash, a dot or another @ (not an email, not a URL path). */
const BEFORE = "(^|[^A-Za-z0-9_/.@])";

/** @username in text, global: group 1 the character before, group 2 the name. */
export const MENTION = new RegExp(`${BEFORE}@(${NAME}{4,33})(?![A-Za-z0-9_])`, "g");

/** An @mention being typed, ending at the caret: group 2 the name so far (one letter or more). */
export const MENTION_TYPING = new RegExp(`${BEFORE}@(${NAME}{0,33})$`);
