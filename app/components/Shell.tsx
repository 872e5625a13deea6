import { SearchField } from "./search/SearchField";
import { Form, Link, useLocation } from "@remix-run/react";
import { type ReactNode, useRef } from "react";
import type { UserJson, UserStats } from "../../worker/features/users/users.service";
import { dialogHref } from "~/lib/scroll";
import { withParam } from "~/lib/url";
import { Avatar } from "./Avatar";
import { ConfirmDialog, DIALOGS, Dialog } from "./lazyDialogs";
import { Icon } from "./Icon";
import { useDrawer } from "./useDrawer";
import { Toast } from "./Toast";

// The shell's own dialogs load when one opens (issue 22 budget), like every other dialog.
const LoginForm = DIALOGS.login.Component;
const SignupForm = DIALOGS.signup.Component;

export interface ShellProps {
  user: UserJson | null;
  badge: number;
  children: ReactNode;
  /** Extra dialogs a feature renders for its own ?dialog= names. */
  dialogs?: Record<string, ReactNode>;
  /** A one-read notice after a form post (published, deleted): shown as a toast on any page. */
  flash?: string | null;
}

/** Spec 9: the badge is invitation plus noti, capped at 99. */
export function badgeCount(stats: UserStats | undefined): number {
  return Math.min(99, (stats?.noti ?? 0) + (stats?.invitation ?? 0));
}

function Badge({ n }: { n: number }) {
  if (n <= 0) return null;
  return (
    <span className="badge">
      {n}
      <span className="sr-only"> unread</span>
    </span>
  );
}

type Section = "home" | "notes" | "experience" | "notifications" | "search" | "bookmarks" | "settings" | "moderation";

/**
 * The sidebar entry of the page you are on (issue 21 item 16), by its path as Mastodon's and
 * Bluesky's sidebars do: your profile is My Experience, its Notes tab My Notes; a single note,
 * another person's profile or a static page belongs to no entry.
 */
export function sectionOf(pathname: string, search: string, username?: string): Section | null {
  const first = pathname.split("/")[1] ?? "";
  if (pathname === "/") return "home";
  if (["notifications", "search", "bookmarks", "settings", "moderation"].includes(first)) return first as Section;
  if (username && first === username) {
    const rest = pathname.split("/").slice(2).filter(Boolean);
    if (!rest.length) return new URLSearchParams(search).get("t") === "notes" ? "notes" : "experience";
    if (rest[0] === "x") return "experience";
  }
  return null;
}

function LeftSidebar({ user, badge }: { user: UserJson | null; badge: number }) {
  const location = useLocation();
  const current = sectionOf(location.pathname, location.search, user?.username);
  // The current entry is marked for the eye (.active) and the ear (aria-current).
  const mark = (s: Section) =>
    current === s ? { className: "active", "aria-current": "page" as const } : { className: undefined };
  const open = new URLSearchParams(location.search).get("sidebar") === "1";
  const touchX = useRef<number | null>(null);
  const closeHref = withParam(location, "sidebar", null);
  const closeRef = useRef<HTMLAnchorElement>(null);
  const navRef = useRef<HTMLElement>(null);
  useDrawer(navRef, open, closeHref);
  return (
    <>
      {/* The dimmed page beside the open drawer: a tap on it closes the drawer (a plain link). */}
      {open && <Link to={closeHref} replace className="drawer-bg" aria-label="Close menu" tabIndex={-1} />}
      <nav
        ref={navRef}
        className={`left${open ? " open" : ""}`}
        aria-label="Main"
        onTouchStart={(e) => {
          touchX.current = e.touches[0]?.clientX ?? null;
        }}
        onTouchEnd={(e) => {
          const start = touchX.current;
          const end = e.changedTouches[0]?.clientX;
          // Spec 2: a swipe of more than 50 px to the left closes the sidebar.
          if (open && start !== null && end !== undefined && start - end > 50) closeRef.current?.click();
          touchX.current = null;
        }}
      >
        {open && (
          <Link ref={closeRef} to={closeHref} className="icon-btn close-sidebar" aria-label="Close menu" replace>
            <Icon name="x" size={20} />
          </Link>
        )}
        {user ? (
          <Link to={`/${user.username}`} className="user-card">
            <Avatar name={user.fullname} src={user.avatar} size={44} />
            <span>
              <strong>{user.fullname}</strong>
              <small>@{user.username}</small>
            </span>
          </Link>
        ) : (
          <Link to="/" className="brand">
            NoteX
          </Link>
        )}
        <ul>
          <li>
            <Link to="/" {...mark("home")}>
              Home
            </Link>
          </li>
          {/* A visitor sees only what a visitor can use: the rest needs an account. */}
          {user && (
            <>
              <li>
                <Link to={`/${user.username}?t=notes`} {...mark("notes")}>
                  My Notes
                </Link>
              </li>
              <li>
                <Link to={`/${user.username}`} {...mark("experience")}>
                  My Experience
                </Link>
              </li>
              <li>
                <Link to="/notifications" {...mark("notifications")}>
                  Notifications <Badge n={badge} />
                </Link>
              </li>
            </>
          )}
          <li>
            <Link to="/search" {...mark("search")}>
              Search
            </Link>
          </li>
          {user && (
            <>
              <li>
                <Link to="/bookmarks" {...mark("bookmarks")}>
                  Bookmarks
                </Link>
              </li>
              <li>
                <Link to="/settings" {...mark("settings")}>
                  Settings
                </Link>
              </li>
            </>
          )}
          {(user?.role === "moderator" || user?.role === "admin") && (
            <li>
              <Link to="/moderation" {...mark("moderation")}>
                Moderation
              </Link>
            </li>
          )}
          {user && (
            <li>
              <Link to={dialogHref(location, "logout")}>Logout</Link>
            </li>
          )}
        </ul>
        <footer className="legal-links">
          <Link to="/terms">Terms</Link> <Link to="/policy">Policy</Link> <Link to="/about">About</Link>
        </footer>
      </nav>
    </>
  );
}

/** A visitor's way in: joining first, logging in beside it. */
function JoinButtons({ small = false }: { small?: boolean }) {
  const location = useLocation();
  const size = small ? " small" : "";
  return (
    <span className="join">
      <Link to={dialogHref(location, "login")} className={`btn${size}`}>
        Log in
      </Link>
      <Link to={dialogHref(location, "signup")} className={`btn primary${size}`}>
        Sign up
      </Link>
    </span>
  );
}

function TopBar({ user, badge }: { user: UserJson | null; badge: number }) {
  const location = useLocation();
  return (
    <header className="topbar">
      <Link to={withParam(location, "sidebar", "1")} className="icon-btn menu-toggle" aria-label="Open menu">
        <Icon name="menu" size={22} />
      </Link>
      <Link to="/" className="logo" aria-label="NoteX home">
        NoteX
      </Link>
      {/* A plain GET form to /search (JavaScript or not); phones use the search icon instead. */}
      <Form method="get" action="/search" role="search" className="top-search">
        <SearchField
          label="Search NoteX"
          placeholder="Search NoteX"
          key={location.pathname === "/search" ? location.search : "top"}
          defaultValue={location.pathname === "/search" ? (new URLSearchParams(location.search).get("q") ?? "") : ""}
        />
      </Form>
      <div className="top-actions">
        <Link to="/" aria-label="Home" className="icon-btn">
          <Icon name="house" size={22} />
        </Link>
        {user ? (
          <>
            <Link to={dialogHref(location, "note")} aria-label="Take a note" className="icon-btn">
              <Icon name="plus" size={22} />
            </Link>
            <Link to="/notifications" aria-label="Notifications" className="icon-btn">
              <Icon name="bell" size={22} />
              <Badge n={badge} />
            </Link>
            <Link to={`/${user.username}`} aria-label="Your profile">
              <Avatar name={user.fullname} src={user.avatar} size={32} />
            </Link>
          </>
        ) : (
          <JoinButtons small />
        )}
      </div>
    </header>
  );
}

function RightSidebar({ user }: { user: UserJson | null }) {
  const location = useLocation();
  return (
    <aside className="right" aria-label="Actions">
      {user ? (
        <Link to={dialogHref(location, "note")} className="btn primary block">
          Take a note
        </Link>
      ) : (
        <div className="stack">
          <Link to={dialogHref(location, "signup")} className="btn primary block">
            Sign up
          </Link>
          <Link to={dialogHref(location, "login")} className="btn block">
            Log in
          </Link>
        </div>
      )}
    </aside>
  );
}

function BottomBar({ user, badge }: { user: UserJson | null; badge: number }) {
  const location = useLocation();
  if (!user) {
    return (
      <nav className="bottombar" aria-label="Mobile">
        <Link to="/" className="brand">
          NoteX
        </Link>
        <JoinButtons small />
      </nav>
    );
  }
  return (
    <nav className="bottombar" aria-label="Mobile">
      <Link to="/" aria-label="Home" className="icon-btn">
        <Icon name="house" size={24} />
      </Link>
      <Link to="/search" aria-label="Search" className="icon-btn">
        <Icon name="search" size={24} />
      </Link>
      <Link to={dialogHref(location, "note")} aria-label="Add note" className="icon-btn">
        <Icon name="plus" size={24} />
      </Link>
      <Link to="/notifications" aria-label="Notifications" className="icon-btn">
        <Icon name="bell" size={24} />
        <Badge n={badge} />
      </Link>
      <Link to={`/${user.username}`} aria-label="Your profile">
        <Avatar name={user.fullname} src={user.avatar} size={28} />
      </Link>
    </nav>
  );
}

export function Shell({ user, badge, children, dialogs, flash }: ShellProps) {
  const location = useLocation();
  const dialog = new URLSearchParams(location.search).get("dialog");
  // Spec 9: the list resets the unread count as it is shown; the root's count was read beside it.
  if (location.pathname === "/notifications") badge = 0;
  // Spec 2's scroll to the top on a path or query change is <ScrollRestoration getKey> (lib/scroll).
  return (
    <div className="shell">
      <a href="#main" className="skip">
        Skip to content
      </a>
      <TopBar user={user} badge={badge} />
      <LeftSidebar user={user} badge={badge} />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <RightSidebar user={user} />
      <BottomBar user={user} badge={badge} />
      {!user && dialog === "login" && location.pathname !== "/login" && (
        <Dialog title="Log in to NoteX">
          <LoginForm />
        </Dialog>
      )}
      {!user && dialog === "signup" && location.pathname !== "/login" && (
        <Dialog title="Sign up">
          <SignupForm />
        </Dialog>
      )}
      {user && dialog === "logout" && (
        <ConfirmDialog title="Logout" question="Are you sure you want to logout?" action="/logout" />
      )}
      {dialog && dialogs?.[dialog]}
      <Toast message={flash} />
    </div>
  );
}

/**
 * The app shell's frame (worker/lib/shell.ts): the same for every signed-in browser, so it names
 * no one. It shows while the page's data comes, as Mastodon's and Bluesky's web apps do.
 */
export function AppLoading() {
  return (
    <div className="shell" aria-busy="true">
      <header className="topbar">
        {/* Where the menu button will be, so the logo does not move when the page comes. */}
        <span className="icon-btn menu-toggle" aria-hidden="true">
          <Icon name="menu" size={22} />
        </span>
        <Link to="/" className="logo" aria-label="NoteX home">
          NoteX
        </Link>
      </header>
      <main id="main">
        <section className="page">
          <p className="sr-only" role="status">
            Loading
          </p>
          {[0, 1, 2].map((i) => (
            <div key={i} className="note skeleton" aria-hidden="true">
              <span className="skeleton-avatar" />
              <span className="skeleton-line" />
              <span className="skeleton-line short" />
            </div>
          ))}
        </section>
      </main>
    </div>
  );
}
