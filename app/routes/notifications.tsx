import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Avatar } from "~/components/Avatar";
import { apiFor, result } from "~/lib/api.server";
import { listQuery } from "~/lib/notes.server";
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
  const api = apiFor(request, context);
  const url = new URL(request.url);
  const res = await result(api.v1.notifications.$get({ query: listQuery(url) }));
  if (res.status === 401) throw redirect("/login");
  if (!res.ok) throw new Response("error", { status: 500 });
  // Spec 2: opening the list resets the unread count to 0 once the list has loaded; with nothing
  // unread there is nothing to reset (a D1 write and round trip saved on most visits).
  if (res.data.unread !== 0) await api.v1.notifications.read.$post();
  const notis: Noti[] = res.data.notis;
  return { ...res.data, notis };
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
