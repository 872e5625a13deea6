import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { AuthorLink } from "~/components/Avatar";
import { listParams, must, readPage } from "~/lib/page.server";
import { known } from "../../worker/db/reads";
import { relationsRead } from "../../worker/features/safety/safety.service";
import { MoreLink, nextPageOf } from "../components/MoreLink";

// Blocked and muted accounts each have their own page, as in Bluesky and Mastodon: the lists can
// be long (a page at a time, with a real "More" link), and Settings stays within its D1 budget.
const LISTS = {
  blocked: {
    api: "blocks",
    title: "Blocked accounts",
    intent: "unblock",
    button: "Unblock",
    empty: "You have not blocked anyone.",
  },
  muted: {
    api: "mutes",
    title: "Muted accounts",
    intent: "unmute",
    button: "Unmute",
    empty: "You have not muted anyone.",
  },
} as const;
type Which = keyof typeof LISTS;

interface Person {
  id: number;
  username: string;
  fullname: string;
  avatar: string;
}
interface People {
  users: Person[];
  paginator: { page: number; is_end: boolean };
  cursor: string | null;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data ? LISTS[data.which].title : "Settings"} · NoteX` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const which = params.list as Which;
  if (!(which in LISTS)) throw new Response("Not found", { status: 404 });
  const url = new URL(request.url);
  const { viewer, reads } = await readPage(request, context, {
    list: (db, me) =>
      me ? relationsRead(db, which === "blocked" ? "blocks" : "mutes", me, listParams(url)) : known(null),
  });
  const list: People | null = must(viewer, reads.list);
  if (!viewer.user || !list) throw redirect("/login");
  return { viewer, which, list };
}

export default function PeopleList() {
  const { which, list } = useLoaderData<typeof loader>();
  const { title, intent, button, empty } = LISTS[which];
  const location = useLocation();
  const here = `${location.pathname}${location.search}`;
  return (
    <section className="page settings">
      <p className="crumbs">
        <Link to="/settings">Settings</Link>
      </p>
      <h1>{title}</h1>
      <p className="muted">
        {which === "blocked"
          ? "You and they cannot follow, reply to, like, renote or quote each other, and neither of you sees the other's notes."
          : "Their notes, renotes, replies and notifications stay out of your lists. They are not told."}
      </p>
      {list.users.length === 0 ? (
        <p className="empty">{empty}</p>
      ) : (
        <ul className="user-list people">
          {list.users.map((u) => (
            <li key={u.id} className="person">
              <AuthorLink user={u} size={40} />
              <Form method="post" action="/actions/safety">
                <input type="hidden" name="uid" value={u.id} />
                <input type="hidden" name="intent" value={intent} />
                <input type="hidden" name="redirectTo" value={here} />
                <button type="submit" className="btn small" aria-label={`${button} @${u.username}`}>
                  {button}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
      {!list.paginator.is_end && (
        <MoreLink to={nextPageOf(location.pathname, new URLSearchParams(location.search), list)} />
      )}
    </section>
  );
}
