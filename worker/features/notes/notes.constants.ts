// Kept apart from the zod schemas so pages can import them without zod or the sanitiser.

// Spec 3 and 5: preset x-labels, limits and messages, shared by the composer and the API.
export const PRESET_LABELS = [
  "note",
  "memo",
  "story",
  "chill",
  "awesome",
  "cool",
  "beauty",
  "idea",
  "learn",
  "thought",
  "insight",
  "how to",
  "tip",
  "trick",
  "solution",
  "hack",
  "research",
  "best practice",
  "knowledge",
  "useful",
  "guide",
  "a.i.",
];
export const MAX_TEXT = 2800;
export const MAX_TAGS = 15;
export const MAX_TAG_LEN = 50;
export const MAX_FOLDERS = 20;
export const MAX_IMAGES = 10;
/** An image's alt text, as long as Mastodon's. */
export const MAX_ALT = 1500;
export const MAX_LABEL = 20;

/** Spec 5: YouTube links yielding an 11-character id; anything else is invalid. */
export function youtubeId(input: string): string | null {
  const s = input.trim();
  if (/^[A-Za-z0-9_-]{11}$/.test(s)) return s;
  let url: URL;
  try {
    url = new URL(/^https?:\/\//i.test(s) ? s : `https://${s}`);
  } catch {
    return null;
  }
  const host = url.hostname.replace(/^(www\.|m\.|music\.)/, "");
  let id: string | null = null;
  if (host === "youtu.be") id = url.pathname.slice(1).split("/")[0];
  else if (host === "youtube.com" || host === "youtube-nocookie.com") {
    if (url.pathname === "/watch") id = url.searchParams.get("v");
    else id = /^\/(embed|shorts|live|v)\/([^/?#]+)/.exec(url.pathname)?.[2] ?? null;
  }
  return id && /^[A-Za-z0-9_-]{11}$/.test(id) ? id : null;
}

/** notes.kind as stored, and its name in the API's Note. */
export const NOTE_KINDS = ["note", "renote", "quote"] as const;
export const RENOTE = 1;
export const QUOTE = 2;
