import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useRouteLoaderData, useSearchParams } from "@remix-run/react";
import { ProfileFoldersTab } from "~/components/folders/ProfileFoldersTab";
import { ProfileNotesTab } from "~/components/notes/ProfileNotesTab";
import { EditProfileDialog, FollowListDialog, ProfileHeader } from "~/components/profile/ProfileHeader";
import { fieldTexts } from "~/lib/notices";
import type { loader as rootLoader } from "~/root";
import { apiFor, orThrow, result } from "~/lib/api.server";
import { excerpt, feedLink, originOf, previewMeta } from "~/lib/meta";
import { loadFoldersTab, loadNotesTab } from "~/lib/profile.server";
import { keepAfterAnsweredActions } from "~/lib/revalidate";
import { toCurrentName } from "~/lib/moved.server";
import { Tabs, tabLinks } from "~/components/Tabs";
import { profilePath } from "~/lib/url";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: "NoteX" }];
  const { user } = data;
  return [
    ...previewMeta(
      {
        title: `${user.fullname} (@${user.username})`,
        description: excerpt(user.descr || `Notes and experience of ${user.fullname} on NoteX`),
        path: profilePath(user.username),
        image: user.avatar,
        type: "profile",
      },
      originOf(matches),
    ),
    ...(user.remote_url ? [] : [feedLink(`/${user.username}/rss`, `Notes by @${user.username}`)]),
  ];
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const api = apiFor(request, context);
  const username = params.username ?? "";
  const url = new URL(request.url);
  // Someone on another server (/@name@host): found there the first time, so their notes are asked
  // for once they are stored; they have notes here but no x-folders.
  const remote = username.includes("@", 1);
  const tab = remote || url.searchParams.get("t") === "notes" ? "notes" : "folders";
  const load = tab === "notes" ? loadNotesTab : loadFoldersTab;
  // The person and the open tab's list are asked for side by side: one D1 round trip.
  const asked = result(api.v1.users[":username"].$get({ param: { username } }));
  const early = remote ? null : load(api, username, url);
  // Awaited below, once the person is known: their 404 or rename answers first.
  early?.catch(() => {});
  const user = orThrow(await asked);
  toCurrentName(request, username, user);
  const listed = early ?? load(api, user.username, url);
  const dialog = url.searchParams.get("dialog");
  const which = dialog === "following" || dialog === "followers" ? dialog : null;
  const [data, list] = await Promise.all([
    listed,
    which
      ? result(
          api.v1.follows[":uid"][":which{following|followers}"].$get({
            param: { uid: String(user.id), which },
            query: { page: "1" },
          }),
        )
      : null,
  ]);
  return {
    user,
    tab,
    data,
    follow: which ? { which, users: list?.ok ? list.data.users : [] } : null,
    profileError: url.searchParams.get("profile_error"),
  };
}

export default function Profile() {
  const { user, tab, data, follow, profileError } = useLoaderData<typeof loader>();
  const viewer = useRouteLoaderData<typeof rootLoader>("root")?.user ?? null;
  const dialog = useSearchParams()[0].get("dialog");
  return (
    <section className="page profile">
      <ProfileHeader user={user} viewer={viewer} />
      {follow && (
        <FollowListDialog title={follow.which === "following" ? "Following" : "Followers"} users={follow.users} />
      )}
      {user.me && dialog === "edit-profile" && (
        <EditProfileDialog user={user} errors={fieldTexts(profileError, ["name", "descr"])} />
      )}
      <Tabs
        label="Profile"
        current={tab}
        tabs={
          user.remote_url
            ? tabLinks(profilePath(user.username), "t", { notes: "Notes" })
            : tabLinks(`/${user.username}`, "t", { folders: "X-Folders", notes: "Notes" })
        }
      />
      {tab === "notes" ? <ProfileNotesTab data={data} user={user} /> : <ProfileFoldersTab data={data} user={user} />}
    </section>
  );
}

export const shouldRevalidate = keepAfterAnsweredActions;
