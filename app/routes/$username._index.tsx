import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import type { UserJson } from "../../worker/features/users/users.service";
import { ProfileFoldersTab } from "~/components/folders/ProfileFoldersTab";
import { ProfileNotesTab } from "~/components/notes/ProfileNotesTab";
import { ProfileHeader } from "~/components/profile/ProfileHeader";
import { apiFor, orThrow } from "~/lib/api.server";
import { loadFoldersTab, loadNotesTab } from "~/lib/profile.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.user.fullname} (@${data.user.username}) · NoteX` : "NoteX" },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const api = apiFor(request, context);
  const user = orThrow(await api.get<UserJson>(`/users/${encodeURIComponent(params.username ?? "")}`));
  const url = new URL(request.url);
  const tab = url.searchParams.get("t") === "notes" ? "notes" : "folders";
  const data = tab === "notes" ? await loadNotesTab(api, user, url) : await loadFoldersTab(api, user, url);
  return { user, tab, data };
}

export default function Profile() {
  const { user, tab, data } = useLoaderData<typeof loader>();
  return (
    <section className="page profile">
      <ProfileHeader user={user} />
      <nav className="tabs" aria-label="Profile">
        <Link to={`/${user.username}`} aria-current={tab === "folders" ? "page" : undefined}>
          X-Folders
        </Link>
        <Link to={`/${user.username}?t=notes`} aria-current={tab === "notes" ? "page" : undefined}>
          Notes
        </Link>
      </nav>
      {tab === "notes" ? <ProfileNotesTab data={data} user={user} /> : <ProfileFoldersTab data={data} />}
    </section>
  );
}
