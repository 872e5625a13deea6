import type { ShouldRevalidateFunction } from "@remix-run/react";

/**
 * Actions whose answer already carries the new state (a like answers liked and likenum, a bookmark
 * saved, and the card keeps them: lib/counts.ts, NoteMenuExtra): after one, nothing a loader
 * shows has changed, so the root and the page's loaders need not run again (issue 15).
 */
const ANSWERED = new Set(["/actions/like", "/actions/bookmark"]);

/**
 * One rule for every route whose loader an answered action cannot change. Not for /bookmarks,
 * whose list an unsave does change.
 */
export const keepAfterAnsweredActions: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction && ANSWERED.has(new URL(formAction, "http://x").pathname) ? false : defaultShouldRevalidate;
