import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useSearchParams } from "@remix-run/react";
import { ProfileFoldersTab } from "~/components/folders/ProfileFoldersTab";
import { ProfileNotesTab } from "~/components/notes/ProfileNotesTab";
import { EditProfileDialog, FollowListDialog, ProfileHeader } from "~/components/profile/ProfileHeader";
import { fieldTexts } from "~/lib/notices";
import { useViewer } from "~/lib/viewer";
import { apiFor, result } from "~/lib/api.server";
import { must, readPage } from "~/lib/page.server";
import { readOne } from "../../worker/db/reads";
import { followsRead } from "../../worker/features/follows/follows.service";
import { orFormer, type UserJson } from "../../worker/features/users/users.service";
import { userRead } from "../../worker/features/users/users.read";
import { excerpt, feedLink, originOf, previewMeta } from "~/lib/meta";
import { foldersTabRead, noFolders, notesTabRead } from "~/lib/profile.server";
import { keepAfterAnsweredActions } from "~/lib/revalidate";
import { toCurrentName } from "~/lib/moved.server";
import { Tabs, tabLinks } from "~/components/Tabs";

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return [{ title: "NoteX" }];
  const { user } = data;
  return [
    ...previewMeta(
      {
        title: `${user.fullname} (@${user.username})`,
        description: excerpt(user.descr || `Notes and experience of ${user.fullname} on NoteX`),
        path: `/${user.username}`,
        image: user.avatar,
        type: "profile",
      },
      originOf(matches),
    ),
    feedLink(`/${user.username}/rss`, `Notes by @${user.username}`),
  ];
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const username = (params.username ?? "").replace(/^@/, "");
  const url = new URL(request.url);
  const tab = url.searchParams.get("t") === "notes" ? "notes" : "folders";
  // name@host is a person on another server: the API looks them up there first (federation).
  if (username.includes("@"))
    await result(apiFor(request, context).v1.users[":username"].$get({ param: { username } }));
  // The person (or the account that gave up this name) and the open tab's list, both by the name
  // in the address: one batch.
  const { viewer, reads, db } = await readPage(request, context, {
    user: (db, me) => orFormer(userRead(db, { username }, me), username, db),
    list: tab === "notes" ? notesTabRead(username, url) : foldersTabRead(username, url),
  });
  const found = must(viewer, reads.user);
  if ("former" in found) toCurrentName(request, username, found.former);
  const user = found as UserJson;
  const dialog = url.searchParams.get("dialog");
  const which = dialog === "following" || dialog === "followers" ? dialog : null;
  // The follow list's dialog needs the person's id: a second trip, only while it is open.
  const list = which ? await readOne(db, followsRead(db, user.id, which, { page: 1 }, viewer.user?.id ?? 0)) : null;
  return {
    viewer,
    user,
    tab,
    // A notes page that cannot be read is an error page; the folders tab shows none instead.
    data: tab === "notes" ? must(viewer, reads.list) : reads.list.ok ? reads.list.data : noFolders(url),
    follow: which ? { which, users: list?.users ?? [] } : null,
    profileError: url.searchParams.get("profile_error"),
  };
}

export default function Profile() {
  const { user, tab, data, follow, profileError } = useLoaderData<typeof loader>();
  const viewer = useViewer();
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
        tabs={tabLinks(`/${user.username}`, "t", { folders: "X-Folders", notes: "Notes" })}
      />
      {tab === "notes" ? <ProfileNotesTab data={data} user={user} /> : <ProfileFoldersTab data={data} user={user} />}
    </section>
  );
}

export const shouldRevalidate = keepAfterAnsweredActions;
