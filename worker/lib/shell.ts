import { JS_COOKIE } from "./js-marker";
import { safeRedirect } from "../../app/lib/url";
import { mayCarrySession } from "./page-cache";

// The app shell (issue 19: signed-in pages as cheap as visitors'). A signed-in browser that runs
// JavaScript gets, for a page view, one HTML document that is the same for everyone (the frame and
// a loading state, no one's data), kept in the edge cache like a visitor page, and then the page's
// data from its loaders as Remix's single fetch `.data`: no React render of the page on the server.
// That is how Mastodon's and Bluesky's web apps load. Without JavaScript nothing changes: the full
// page is rendered, since a browser that never ran our script never carries the marker cookie.

// Pages that stay fully rendered: sign-in flows and one-time links (their loaders redirect or spend
// a token), the local outbox, and the JSON, data and form endpoints.
const FULL = /^\/(?:v1|actions|callback|dev|login|signup|logout|forgot|reset|confirm|nojs)(?:\/|$)|\.data$/;

const hasJsMarker = (req: Request) =>
  (req.headers.get("cookie") ?? "").split(";").some((c) => c.trim() === `${JS_COOKIE}=1`);

/**
 * A page view of a signed-in browser that runs JavaScript: a GET document with the session cookie
 * and the marker. Its answer shares nothing with anyone's session, so it may come from the cache.
 */
export function isShellRequest(req: Request): boolean {
  if (req.method !== "GET") return false;
  const url = new URL(req.url);
  return !FULL.test(url.pathname) && mayCarrySession(req) && hasJsMarker(req);
}

/** The answer to GET /nojs?to=…: the marker cleared, back to the page (same site only: the one guard). */
export function noJsRedirect(req: Request): Response {
  return new Response(null, {
    status: 303,
    headers: {
      Location: safeRedirect(new URL(req.url).searchParams.get("to")),
      "Set-Cookie": `${JS_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax`,
      "Cache-Control": "no-store",
    },
  });
}

type Loader = (args: { context: { shell?: boolean } }) => unknown;
interface RouteModule {
  loader?: Loader;
  [k: string]: unknown;
}
interface Build {
  routes: Record<string, { module: RouteModule; [k: string]: unknown }>;
  [k: string]: unknown;
}

/**
 * The Remix build with every page loader but the root's answering null for a shell render: the
 * root draws the frame (app/root.tsx) and no page component renders, so none reads that null.
 */
export function withShellLoaders<B>(build: B): B {
  const b = build as unknown as Build;
  const routes = Object.fromEntries(
    Object.entries(b.routes).map(([id, route]) => {
      const loader = route.module.loader;
      if (id === "root" || !loader) return [id, route];
      const module = { ...route.module, loader: ((args) => (args.context.shell ? null : loader(args))) as Loader };
      return [id, { ...route, module }];
    }),
  );
  return { ...b, routes } as unknown as B;
}
