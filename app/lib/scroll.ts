// Where the page stands when the URL changes (issue 21). A real navigation starts at the top (spec:
// "scrolls to the top on every path or query change"); Back/Forward return to where that entry was;
// opening or closing a dialog or the sidebar (only their own query parameters change) never moves
// the page. Remix's <ScrollRestoration getKey> does the saving and restoring: an overlay's history
// entry shares the scroll key of the page under it, every other new entry gets a key of its own.

/** Query parameters that belong to an overlay (?dialog=name, its arguments, the sidebar), not to the page. */
export const OVERLAY_PARAMS = [
  "dialog",
  "id",
  "u",
  "kind",
  "edit",
  "rid",
  "ftype",
  "folder",
  "error",
  "edit_error",
  "reported",
  "sidebar",
  // The reply box opened under a reply in a thread (components/social/Replies.tsx).
  "reply_to",
];

type Loc = { pathname: string; search: string; key?: string };

/** The page under any overlay: path and query without the overlay's parameters. */
export function pageOf(location: Loc): string {
  const p = new URLSearchParams(location.search);
  for (const k of OVERLAY_PARAMS) p.delete(k);
  const q = p.toString();
  return `${location.pathname}${q ? `?${q}` : ""}`;
}

/** A link that opens dialog `name` over the current page, with its arguments (never twice). */
export function dialogHref(location: Loc, name: string, args: Record<string, string | number> = {}): string {
  const p = new URLSearchParams(pageOf(location).split("?")[1] ?? "");
  p.set("dialog", name);
  for (const [k, v] of Object.entries(args)) p.set(k, String(v));
  return `${location.pathname}?${p}`;
}

const hasOverlay = (l: Loc) => {
  const p = new URLSearchParams(l.search);
  return OVERLAY_PARAMS.some((k) => p.has(k));
};

const STORE = "notex:scroll-keys";
let keys: Record<string, string> | null = null;
let last: Loc | null = null;

function load(): Record<string, string> {
  try {
    return JSON.parse(sessionStorage.getItem(STORE) ?? "{}");
  } catch {
    return {};
  }
}

/**
 * getKey for <ScrollRestoration>. The router asks for the key of the entry it leaves, then of the
 * one it arrives at: a new entry that only opens or closes an overlay over the same page inherits
 * the key of the one it left, so its saved position is "here".
 */
export function scrollKey(location: Loc): string {
  const own = location.key ?? "default";
  keys ??= load();
  let k = keys[own];
  if (!k) {
    const prev = last;
    const overlayOnly =
      prev?.key && prev.key !== own && pageOf(prev) === pageOf(location) && (hasOverlay(prev) || hasOverlay(location));
    k = overlayOnly && prev ? scrollKey(prev) : own;
    keys[own] = k;
    const all = Object.entries(keys);
    // A session's history is bounded; so is what is kept for it.
    if (all.length > 200) keys = Object.fromEntries(all.slice(-150));
    try {
      sessionStorage.setItem(STORE, JSON.stringify(keys));
    } catch {}
  }
  last = location;
  return k;
}
