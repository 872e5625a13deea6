import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Avatar } from "~/components/Avatar";
import { listParams, must, readPage } from "~/lib/page.server";
import { known } from "../../worker/db/reads";
import { markRead, notificationsRead } from "../../worker/features/notifications/notifications.service";
import { Ago } from "~/components/Ago";

export const meta: MetaFunction = () => [{ title: "Notifications · NoteX" }];

interface Noti {
  id: number;
  action: string;
  extra: string;
  href: string;
  user: { username: string; fullname: string; avatar: string };
  created_at: number;
}

const TEXT: Record<string, string> = {
  like: "liked your post",
  reply: "replied to you",
  follow: "followed you",
  note: "posted a new note",
  renote: "renoted your note",
  quote: "quoted your note",
  // Moderation notices (issue 16): the reason follows as the statement of reasons.
  mod_dismiss: "reviewed reports about your content and took no action",
  mod_hide: "hid your content",
  mod_restore: "restored your content",
  mod_suspend: "suspended your account",
  mod_unsuspend: "lifted your account's suspension",
  mention: "mentioned you",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const { viewer, reads, db } = await readPage(request, context, {
    list: (db, me) => (me ? notificationsRead(db, me, listParams(url)) : known(null)),
  });
  if (!viewer.user) throw redirect("/login");
  const list = must(viewer, reads.list);
  if (!list) throw redirect("/login");
  // Spec 2: opening the list resets the unread count to 0 once the list has loaded; with nothing
  // unread there is nothing to reset (a D1 write and round trip saved on most visits).
  if (list.unread !== 0) await markRead(db, viewer.user.id);
  const notis: Noti[] = list.notis;
  return { viewer, ...list, notis };
}

export default function Notifications() {
  const { notis, paginator, cursor } = useLoaderData<typeof loader>();
  return (
    <section className="page">
      <h1>Notifications</h1>
      {notis.length === 0 ? (
        <p className="empty">No notifications yet</p>
      ) : (
        <ul className="notis">
          {notis.map((n) => (
            <li key={n.id}>
              <Link to={n.href} className="noti">
                <Avatar name={n.user.fullname} src={n.user.avatar} size={36} />
                <span>
                  <strong>{n.user.fullname}</strong> {TEXT[n.action] ?? n.action}
                  {n.extra && (
                    <span className="muted">
                      {n.action.startsWith("mod_") ? " · Reason: " : " · "}
                      {n.extra}
                    </span>
                  )}
                </span>
                <Ago ms={n.created_at} className="muted" />
              </Link>
            </li>
          ))}
        </ul>
      )}
      {!paginator.is_end && cursor && (
        <div className="more">
          <Link to={`?page=${paginator.page + 1}&cursor=${cursor}`}>More</Link>
        </div>
      )}
    </section>
  );
}
