import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, type ShouldRevalidateFunction, useFetcher, useLoaderData } from "@remix-run/react";
import { Avatar } from "~/components/Avatar";
import { Icon } from "~/components/Icon";
import type { IconName } from "~/components/icons";
import { PersonActionForm } from "~/components/PersonActionForm";
import { listParams, must, readPage } from "~/lib/page.server";
import { known } from "../../worker/db/reads";
import { countedKind } from "../../worker/features/interactions/counted";
import { openedNotificationsRead } from "../../worker/features/notifications/notifications.service";
import { Ago } from "~/components/Ago";
import { remoteHost } from "~/lib/url";
import { MoreLink } from "../components/MoreLink";

export const meta: MetaFunction = () => [{ title: "Notifications · NoteX" }];

interface Noti {
  id: number;
  action: string;
  tblname: string;
  extra: string;
  href: string;
  user: { id: number; username: string; fullname: string; avatar: string };
  created_at: number;
  unread: boolean;
  subject: string | null;
  following?: boolean;
}

/** What each notice says that is not a counted interaction's (those read their kind's verb). */
const TEXT: Record<string, string> = {
  reply: "replied to you",
  follow: "followed you",
  note: "posted a new note",
  quote: "quoted your note",
  // Moderation notices (issue 16): the reason follows as the statement of reasons.
  mod_dismiss: "reviewed reports about your content and took no action",
  mod_hide: "hid your content",
  mod_restore: "restored your content",
  mod_suspend: "suspended your account",
  mod_unsuspend: "lifted your account's suspension",
  mention: "mentioned you",
  move: "moved to a new account, which you now follow",
  import: "— your import is done",
};

/** What a counted interaction is about, as its notice says it ("liked your reply"). */
const KIND: Record<string, string> = { note: "note", reply: "reply", folder: "x-folder" };

const ICON: Record<string, IconName> = {
  quote: "repeat-2",
  reply: "message-circle",
  mention: "at-sign",
  follow: "user-plus",
  move: "user-plus",
  note: "bell",
  import: "circle-check",
};

/** The tabs: everything, or what people said to you (mentions, replies, quotes). */
const TABS = [
  { t: "all", label: "All", href: "/notifications" },
  { t: "mentions", label: "Mentions", href: "/notifications?t=mentions" },
] as const;

/** A notice's icon on its actor's avatar: a counted interaction's own, else this page's. */
function NoticeIcon({ action }: { action: string }) {
  const icon = countedKind(action)?.notice.icon ?? ICON[action];
  if (!icon) return null;
  return (
    <span className={`noti-icon ${action}`}>
      <Icon name={icon} size={12} />
    </span>
  );
}

function says(n: Noti): string {
  const counted = countedKind(n.action);
  if (counted) {
    const what = `${counted.notice.verb} your ${KIND[n.tblname] ?? "note"}`;
    return n.subject ? `${what} “${n.subject}”` : what;
  }
  return TEXT[n.action] ?? n.action;
}

/** Follow back from a follow notice: a form, so it works without JavaScript too. */
function FollowBack({ n }: { n: Noti }) {
  const fetcher = useFetcher<{ ok: boolean; data?: { following: boolean } }>();
  const following = fetcher.data?.ok && fetcher.data.data ? fetcher.data.data.following : n.following;
  if (following) return <span className="muted noti-state">Following</span>;
  return (
    <PersonActionForm
      fetcher={fetcher}
      action="/actions/follow"
      uid={n.user.id}
      intent="follow"
      label="Follow back"
      className="btn primary small"
      formClassName="inline"
    />
  );
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const t = url.searchParams.get("t") === "mentions" ? "mentions" : "all";
  // Spec 2: opening the list resets the unread count to 0 once it has loaded: the reset is the
  // batch's last statement, after the list's read, so the page shows what was unread.
  const { viewer, reads } = await readPage(request, context, {
    list: (db, me) => (me ? openedNotificationsRead(db, me, { ...listParams(url), t }) : known(null)),
  });
  const list = must(viewer, reads.list);
  if (!viewer.user || !list) throw redirect("/login");
  const notis: Noti[] = list.notis;
  return { viewer, ...list, notis, t };
}

export default function Notifications() {
  const { notis, paginator, cursor, t } = useLoaderData<typeof loader>();
  const unread = notis.filter((n) => n.unread).length;
  return (
    <section className="page">
      <h1>Notifications</h1>
      <nav className="tabs noti-tabs" aria-label="Which notifications">
        {TABS.map((x) => (
          <Link key={x.t} to={x.href} aria-current={x.t === t ? "page" : undefined}>
            {x.label}
          </Link>
        ))}
      </nav>
      {unread > 0 && <p className="sr-only">{unread === 1 ? "1 unread" : `${unread} unread`}</p>}
      {notis.length === 0 ? (
        <div className="empty">
          <p>{t === "mentions" ? "No mentions yet" : "No notifications yet"}</p>
          <p className="hint">
            {t === "mentions"
              ? "When someone writes your @username in a note or reply, it shows here."
              : "When someone follows you, or likes, replies to, renotes or quotes what you wrote, it shows here. Post a note and follow people to get started."}
          </p>
        </div>
      ) : (
        <ul className="notis">
          {notis.map((n) => (
            <li key={n.id} className={n.unread ? "unread" : undefined}>
              <Link to={n.href} className="noti">
                <span className="noti-avatar">
                  <Avatar name={n.user.fullname} src={n.user.avatar} size={36} />
                  <NoticeIcon action={n.action} />
                </span>
                <span className="noti-text">
                  {n.unread && <span className="sr-only">Unread: </span>}
                  <strong>{n.user.fullname}</strong>
                  {/* Someone on another server is named with it, as Mastodon does. */}
                  {remoteHost(n.user.username) && <span className="muted"> @{n.user.username}</span>} {says(n)}
                  {n.extra && (
                    <span className="muted">
                      {n.action.startsWith("mod_") ? " · Reason: " : " · "}
                      {n.extra}
                    </span>
                  )}
                </span>
                <Ago ms={n.created_at} className="muted" />
                {n.unread && <span className="noti-dot" aria-hidden="true" />}
              </Link>
              {n.action === "follow" && <FollowBack n={n} />}
            </li>
          ))}
        </ul>
      )}
      {!paginator.is_end && cursor && (
        <MoreLink to={`?${t === "mentions" ? "t=mentions&" : ""}page=${paginator.page + 1}&cursor=${cursor}`} />
      )}
    </section>
  );
}

// A follow back is answered by its own form (the button flips): reloading the list would only mark
// the unread ones read under the reader's eyes.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction && new URL(formAction, "http://x").pathname === "/actions/follow" ? false : defaultShouldRevalidate;
