// Mastodon's stream names, what each needs of a token, and the frames a socket receives
// (docs.joinmastodon.org/methods/streaming). A subscription is kept as one string key per stream
// and tag ("hashtag|rust"), the form the hub matches deliveries against.
import { holds } from "../mastodon/scopes";

/** What the hub keeps on each socket (serializeAttachment: it survives hibernation). */
export interface SocketInfo {
  uid: number;
  /** The session the socket was opened with: ended (revoked, logged out) closes the socket. */
  sid: string;
  /** "app": a Mastodon client; "page": a NoteX tab (it may also follow a thread, `note|id`). */
  kind: "app" | "page";
  scopes: string[];
  subs: string[];
}

const TAGGED = new Set(["hashtag", "hashtag:local"]);
const PLAIN = new Set(["user", "user:notification", "public", "public:local", "public:remote"]);
/** Mastodon's media-only streams: NoteX has few images, so they are the plain streams' subsets. */
const MEDIA = new Set(["public:media", "public:local:media", "public:remote:media"]);

export type Parsed = { key: string } | { error: string; status: number };

/** A stream (and its tag) as asked for, checked against the token's scopes. */
export function streamKey(info: Pick<SocketInfo, "kind" | "scopes">, stream: unknown, tag?: unknown): Parsed {
  if (typeof stream !== "string") return { error: "Unknown stream type", status: 400 };
  // A NoteX tab follows the thread it shows (new replies, counts that move).
  if (stream === "note" && info.kind === "page")
    return typeof tag === "string" && /^[1-9]\d{0,15}$/.test(tag)
      ? { key: `note|${tag}` }
      : { error: "No note given", status: 400 };
  const name = MEDIA.has(stream) ? stream.replace(":media", "") : stream;
  if (!PLAIN.has(name) && !TAGGED.has(name)) return { error: "Unknown stream type", status: 400 };
  const needs = name === "user:notification" ? "read:notifications" : "read:statuses";
  if (!holds(info.scopes, needs)) return { error: "Access token does not have the required scopes", status: 401 };
  if (!TAGGED.has(name)) return { key: name };
  if (typeof tag !== "string" || !tag.trim()) return { error: "No tag for stream provided", status: 400 };
  return { key: `${name}|${tag.trim().replace(/^#/, "").toLowerCase().slice(0, 100)}` };
}

/** A subscription key as Mastodon names it in a frame's `stream`: ["hashtag", "rust"]. */
export const streamOf = (key: string) => key.split("|");

/** One frame: Mastodon's payload is itself a JSON string (a status id for `delete`). */
export const frame = (key: string, event: string, payload: string) =>
  JSON.stringify({ stream: streamOf(key), event, payload });

/** Whether a socket may see notifications at all (their payload names who did what). */
export const seesNotifications = (info: SocketInfo) => holds(info.scopes, "read:notifications");
