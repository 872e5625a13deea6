import type { ShouldRevalidateFunction } from "@remix-run/react";
import { ANSWERED_ACTIONS } from "./toggle";

/**
 * Actions whose answer already carries the new state (a like answers liked and likenum, a mark
 * such as a bookmark its state, and the card keeps them: lib/counts.ts, MarkToggle): after one,
 * nothing a loader shows has changed, so the root and the page's loaders need not run again.
 * One rule for every route whose loader an answered action cannot change. Not for /bookmarks,
 * whose list an unsave does change. One landing while another write's reload is on its way makes
 * the router give that reload up: components/ReloadDroppedWrites does it again.
 */
export const keepAfterAnsweredActions: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction && isAnswered(formAction) ? false : defaultShouldRevalidate;

/** Whether a form's action (a path, maybe with a query) is one whose answer carries its state. */
export const isAnswered = (formAction: string) => ANSWERED_ACTIONS.has(new URL(formAction, "http://x").pathname);
