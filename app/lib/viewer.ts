import { isRouteErrorResponse, useMatches } from "@remix-run/react";
import type { DialogData } from "~/components/lazyDialogs";
import type { UserJson } from "../../worker/features/users/users.service";

/**
 * Who is reading the page, as each page's loader answers it (app/lib/page.server.ts readPage): the
 * signed-in person's record (null for a visitor), the badge, and what an open dialog needs.
 */
export interface PageViewer {
  user: UserJson | null;
  badge: number;
  dialogs: DialogData;
}

const VISITOR: PageViewer = { user: null, badge: 0, dialogs: {} };

const viewerIn = (value: unknown): PageViewer | undefined =>
  value && typeof value === "object" && "viewer" in value ? (value as { viewer: PageViewer }).viewer : undefined;

/**
 * The viewer of the page as its deepest loader gave it, or as its error page carries it (a refused
 * page throws the viewer with its status: page.server.ts notHere).
 */
export function pageViewerOf(matches: { data: unknown }[], error?: unknown): PageViewer {
  const fromError = isRouteErrorResponse(error) ? viewerIn(error.data) : undefined;
  if (fromError) return fromError;
  for (let i = matches.length - 1; i >= 0; i--) {
    const found = viewerIn(matches[i].data);
    if (found) return found;
  }
  return VISITOR;
}

export const usePageViewer = (): PageViewer => pageViewerOf(useMatches());

/** The signed-in person's record, or null for a visitor. */
export const useViewer = (): UserJson | null => usePageViewer().user;
