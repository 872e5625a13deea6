import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
  useLocation,
  useRevalidator,
  useRouteLoaderData,
} from "@remix-run/react";
import { lazy, type ReactNode, Suspense, useEffect, useState } from "react";
import { siteOrigin } from "../worker/features/accounts/accounts.service";
import { themeOf } from "../worker/lib/theme";
import { AppLoading, Shell } from "./components/Shell";
import { JS_COOKIE, NOJS_PATH } from "../worker/lib/js-marker";
import { dialogLoaded, globalDialogs } from "./components/lazyDialogs";
import { pageViewerOf } from "./lib/viewer";
import { takeFlash } from "./lib/flash.server";
import { markBooted } from "./lib/hydrated";
import { useNonce } from "./lib/nonce";
import { STYLES_ID, useInlineStyles } from "./lib/styles";
import { scrollKey } from "./lib/scroll";
import { clearRecord, fromServer, writeRecord } from "./lib/record";
import interLatin from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import { keepAfterAnsweredActions } from "./lib/revalidate";

// JavaScript on and signed in, the badge and the feeds move by themselves (components/Live.tsx):
// its module loads for a signed-in page only, not with a visitor's first look.
const LiveWatch = lazy(() => import("./components/Live"));
// Writes are a signed-in person's: the watch over their reloads loads after the page is up.
const ReloadDroppedWrites = lazy(() => import("./components/ReloadDroppedWrites"));

// The stylesheet itself is written into the head (Layout, app/lib/styles.ts), not linked.
export const links: LinksFunction = () => [
  // The Latin letters of the bundled font, fetched with the stylesheet rather than after it.
  { rel: "preload", href: interLatin, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/manifest.webmanifest" },
  { rel: "apple-touch-icon", href: "/icons/apple-touch-icon.png" },
];

export const meta: MetaFunction = () => [
  { title: "NoteX" },
  { name: "description", content: "NoteX — notes, x-folders and a living portfolio of your experience." },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const theme = themeOf(request.headers.get("cookie"));
  // For canonical URLs and link previews (app/lib/meta.ts).
  const origin = siteOrigin(context.cloudflare.env, request.url);
  // The app shell (worker/lib/shell.ts): nobody's data, so the same copy serves every signed-in
  // browser; the page asks for its data once it runs (App). The flash waits for that request.
  if (context.shell) return data({ shell: true, theme, origin, flash: null });
  // The root reads nothing from D1: each page's loader reads the signed-in person's record in its
  // own batch (app/lib/page.server.ts readPage), so a page is one round trip.
  // A notice left by a form post without JavaScript: shown on this page, then cleared.
  const flash = takeFlash(request, context);
  return data(
    { shell: false, theme, origin, flash: flash?.message ?? null },
    flash ? { headers: { "Set-Cookie": flash.clear } } : undefined,
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const styles = useInlineStyles();
  // "system" sets no attribute: the stylesheet follows prefers-color-scheme by itself.
  const root = useRouteLoaderData<typeof loader>("root");
  const theme = root?.theme ?? "system";
  const shell = root?.shell === true;
  const location = useLocation();
  // Marks the page hydrated, error pages included. Tests wait for it before typing: React resets
  // form fields it hydrates, and a key pressed while Remix still decodes its single-fetch data
  // suspends hydration (React 18 then throws #345).
  // A dialog opened by the URL hydrates with its own chunk, so "ready" waits for that too.
  // The app shell is ready once the page's own data has come and rendered.
  useEffect(() => {
    markBooted();
    // Tells the worker this browser runs JavaScript: its signed-in page views then start from the
    // shared app shell (worker/lib/shell.ts) instead of a page rendered for it alone. (Set here,
    // not in entry.client, so the marker's module stays in the root's chunk: no extra request.)
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser NoteX serves (Safari before 18.4), and this write is one fixed flag.
    document.cookie = `${JS_COOKIE}=1; Path=/; Max-Age=31536000; SameSite=Lax${window.location.protocol === "https:" ? "; Secure" : ""}`;
    if (shell) return;
    dialogLoaded(window.location.search).then(() =>
      setTimeout(() => {
        document.documentElement.dataset.ready = "1";
      }),
    );
  }, [shell]);
  return (
    <html lang="en" data-theme={theme === "system" ? undefined : theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme === "system" ? "light dark" : theme} />
        <meta name="theme-color" content="#1d4ed8" />
        {/* A shell reached with JavaScript off (the marker cookie outlived it): the full page instead. */}
        {shell && (
          <noscript>
            <meta
              httpEquiv="refresh"
              content={`0;url=${NOJS_PATH}?to=${encodeURIComponent(location.pathname + location.search)}`}
            />
          </noscript>
        )}
        <Meta />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our own stylesheet, from the build */}
        <style id={STYLES_ID} dangerouslySetInnerHTML={{ __html: styles }} />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} getKey={scrollKey} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { shell, flash } = useLoaderData<typeof loader>();
  const { user, badge, dialogs } = pageViewerOf(useMatches());
  const revalidator = useRevalidator();
  // The app shell asks for the page's data (its loaders, as single fetch's .data) as soon as it runs.
  useEffect(() => {
    if (shell) revalidator.revalidate();
  }, [shell, revalidator.revalidate]);
  // Pages such as the Google callback stand outside the main layout (handle.bare).
  // Menus behave as menus once the page is up; their module stays out of the first load (issue 22).
  useEffect(() => {
    let remove: (() => void) | undefined;
    let gone = false;
    import("./lib/menus").then((m) => {
      if (!gone) remove = m.installMenus();
    });
    return () => {
      gone = true;
      remove?.();
    };
  }, []);
  const bare = useMatches().some((m) => (m.handle as { bare?: boolean } | undefined)?.bare);
  // Spec 3: the "notex" record mirrors the signed-in user and is cleared on logout.
  useEffect(() => {
    if (shell) return;
    if (user) writeRecord(fromServer(user));
    else clearRecord();
  }, [user, shell]);
  const uid = shell ? null : (user?.id ?? null);
  const [liveNotices, setLiveNotices] = useState(0);
  if (shell) return <AppLoading />;
  if (bare) return <Outlet />;
  return (
    <Shell
      user={user}
      badge={Math.min(99, badge + (uid === null ? 0 : liveNotices))}
      dialogs={globalDialogs(user, dialogs)}
      flash={flash}
    >
      {uid !== null && (
        <Suspense fallback={null}>
          <LiveWatch uid={uid} onNotices={setLiveNotices} />
          <ReloadDroppedWrites />
        </Suspense>
      )}
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && [400, 404, 422].includes(error.status);
  const gone = isRouteErrorResponse(error) && error.status === 410;
  if (!isRouteErrorResponse(error)) console.error(error);
  // Inside the app's shell (its sidebar, its font), as the person who was signed in sees it: a
  // page's refusal carries the person's record (app/lib/page.server.ts notHere).
  const root = useRouteLoaderData<typeof loader>("root");
  const viewer = pageViewerOf(useMatches(), error);
  const user = root?.shell ? null : viewer.user;
  return (
    <Shell user={user} badge={viewer.badge}>
      <section className="page error-page">
        <h1>
          {gone
            ? "This note was deleted"
            : notFound
              ? "Oops! The page you're looking for is not here."
              : "Woops! Something went wrong :( Please try again."}
        </h1>
        {gone && <p className="muted">Its author deleted it, along with its replies.</p>}
        <Link to="/" reloadDocument className="btn primary">
          Back to Home Page
        </Link>
      </section>
    </Shell>
  );
}

export const shouldRevalidate = keepAfterAnsweredActions;
