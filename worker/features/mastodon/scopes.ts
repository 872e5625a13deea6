// OAuth scopes as Mastodon names them: the four top-level ones and their granular forms. A token
// holding `read` holds every `read:*`; the legacy `follow` holds the follow, block and mute scopes.
export const TOP_SCOPES = ["read", "write", "follow", "push", "profile"] as const;

const GRANULAR = {
  read: [
    "accounts",
    "blocks",
    "bookmarks",
    "favourites",
    "filters",
    "follows",
    "lists",
    "mutes",
    "notifications",
    "search",
    "statuses",
  ],
  write: [
    "accounts",
    "blocks",
    "bookmarks",
    "conversations",
    "favourites",
    "filters",
    "follows",
    "lists",
    "media",
    "mutes",
    "notifications",
    "reports",
    "statuses",
  ],
} as const;

const KNOWN = new Set<string>([
  ...TOP_SCOPES,
  ...GRANULAR.read.map((s) => `read:${s}`),
  ...GRANULAR.write.map((s) => `write:${s}`),
  // Mastodon's admin scopes: known, so an app asking for them is told no scope is granted, never a 400.
]);

const FOLLOW_HOLDS = new Set([
  "read:follows",
  "write:follows",
  "read:blocks",
  "write:blocks",
  "read:mutes",
  "write:mutes",
]);

/** A scope string (space or "+" separated, as apps send it) as a list; unknown names are reported. */
export function parseScopes(raw: string | undefined, fallback = "read"): { scopes: string[]; unknown: string[] } {
  const list = (raw?.trim() ? raw : fallback).split(/[\s+]+/).filter(Boolean);
  const scopes = [...new Set(list)];
  return { scopes, unknown: scopes.filter((s) => !KNOWN.has(s)) };
}

/** Whether `granted` holds `needed` (e.g. "write:favourites" is held by "write" or itself). */
export function holds(granted: readonly string[], needed: string): boolean {
  if (granted.includes(needed)) return true;
  const [top] = needed.split(":");
  if (granted.includes(top)) return true;
  if (granted.includes("follow") && FOLLOW_HOLDS.has(needed)) return true;
  // Mastodon 4.3: `profile` alone is enough for verify_credentials.
  return needed === "profile" && (granted.includes("read") || granted.includes("read:accounts"));
}

/** Whether every scope in `asked` is one the app registered (a granular one is within its top-level one). */
export const within = (registered: readonly string[], asked: readonly string[]) =>
  asked.every((s) => holds(registered, s));

const NOTEX_WORDS: Record<string, string> = { statuses: "notes", favourites: "likes", reblogs: "renotes" };

/** What the consent page says each scope lets the app do. */
export function describeScope(scope: string): string {
  const [top, what] = scope.split(":");
  // NoteX's own words for Mastodon's things: a status is a note, a reblog a renote, a favourite a like.
  const thing = what ? (NOTEX_WORDS[what] ?? what.replace("_", " ")) : "";
  if (top === "read") return what ? `See your ${thing}` : "See everything in your account";
  if (top === "write") return what ? `Change your ${thing}` : "Post, like, renote, bookmark and change your account";
  if (top === "follow") return "Follow, block and mute people";
  if (top === "push") return "Receive push notifications (not yet sent by NoteX)";
  if (top === "profile") return "See your profile (name and username only)";
  return scope;
}
