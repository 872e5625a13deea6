import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useSearchParams } from "@remix-run/react";
import { ProfileFoldersTab } from "~/components/folders/ProfileFoldersTab";
import { ProfileNotesTab } from "~/components/notes/ProfileNotesTab";
import { FollowListDialog, ProfileHeader, useFediHandle } from "~/components/profile/ProfileHeader";
import { EditProfileDialog } from "~/components/profile/ProfileForm";
import { PROFILE_FIELDS } from "~/components/profile/profileFields";
import { Icon } from "~/components/Icon";
import { RemoteFollowDialog } from "~/components/profile/RemoteFollow";
import { fieldTexts } from "~/lib/notices";
import { useViewer } from "~/lib/viewer";
import { apiFor, result } from "~/lib/api.server";
import { must, type PageRead, readPage } from "~/lib/page.server";
import { known } from "../../worker/db/reads";
import { followsRead } from "../../worker/features/follows/follows.service";
import { idNamed, orFormer, type UserJson } from "../../worker/features/users/users.service";
import { userRead } from "../../worker/features/users/users.read";
import { isRemoteName } from "../../worker/features/users/handle";
import { excerpt, feedLink, originOf, previewMeta } from "~/lib/meta";
import { foldersTabRead, noFolders, notesTabRead } from "~/lib/profile.server";
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
  const username = params.username ?? "";
  const url = new URL(request.url);
  // Someone on another server (/@name@host) has notes here but no x-folders.
  const name = username.replace(/^@/, "");
  const remote = isRemoteName(name);
  const tab = remote || url.searchParams.get("t") === "notes" ? "notes" : "folders";
  const dialog = url.searchParams.get("dialog");
  const which = dialog === "following" || dialog === "followers" ? dialog : null;
  // "See as visitor": every read without the viewer, so the page is the one a visitor gets.
  const asVisitor = url.searchParams.get("as") === "visitor";
  const who = (me: number | null) => (asVisitor ? null : me);
  const seen =
    <T,>(r: PageRead<T>): PageRead<T> =>
    (db, me) =>
      r(db, who(me));
  // The person (or the account that gave up this name), the open tab's list and an open follow
  // list's dialog, all by the name in the address: one batch.
  const read = () =>
    readPage(request, context, {
      user: (db, me) => orFormer(userRead(db, { username: name }, who(me)), name, db),
      list: tab === "notes" ? seen(notesTabRead(name, url)) : seen(foldersTabRead(name, url)),
      follows: (db, me) => (which ? followsRead(db, idNamed(name), which, { page: 1 }, who(me) ?? 0) : known(null)),
    });
  let { viewer, reads } = await read();
  // Someone on another server not known here yet: the API finds them there (a fetch over the
  // network, then they are stored), and the page reads them as it reads anyone.
  if (remote && !reads.user.ok && reads.user.error.status === 404) {
    const found = await result(apiFor(request, context).v1.users[":username"].$get({ param: { username } }));
    if (found.ok) ({ viewer, reads } = await read());
  }
  const found = must(viewer, reads.user);
  if ("former" in found) toCurrentName(request, username, found.former);
  const user = found as UserJson;
  toCurrentName(request, username, user);
  return {
    viewer,
    user,
    tab,
    // A notes page that cannot be read is an error page; the folders tab shows none instead.
    data: tab === "notes" ? must(viewer, reads.list) : reads.list.ok ? reads.list.data : noFolders(url),
    follow: which ? { which, users: reads.follows.ok ? (reads.follows.data?.users ?? []) : [] } : null,
    profileError: url.searchParams.get("profile_error"),
    // Only the owner is offered the preview; anyone else's "as=visitor" changes nothing they see.
    preview: asVisitor && viewer.user?.id === user.id,
  };
}

export default function Profile() {
  const { user, tab, data, follow, profileError, preview } = useLoaderData<typeof loader>();
  const signedIn = useViewer();
  const viewer = preview ? null : signedIn;
  const dialog = useSearchParams()[0].get("dialog");
  const handle = useFediHandle(user.username);
  return (
    <section className="page profile">
      {preview && (
        <p className="notice preview-banner" role="status">
          <Icon name="eye" size={18} /> <span>This is your profile as visitors see it.</span>
          <Link to={`/${user.username}`}>Back to your profile</Link>
        </p>
      )}
      <ProfileHeader user={user} viewer={viewer} />
      {follow && (
        <FollowListDialog title={follow.which === "following" ? "Following" : "Followers"} users={follow.users} />
      )}
      {!viewer && !user.remote_url && dialog === "follow" && (
        <RemoteFollowDialog name={user.fullname} handle={handle} />
      )}
      {user.me && dialog === "edit-profile" && (
        <EditProfileDialog user={user} errors={fieldTexts(profileError, PROFILE_FIELDS)} />
      )}
      <Tabs
        label="Profile"
        current={tab}
        tabs={
          user.remote_url
            ? tabLinks(profilePath(user.username), "t", { notes: "Notes" })
            : tabLinks(`/${user.username}`, "t", { folders: "Portfolio", notes: "Notes" })
        }
      />
      {tab === "notes" ? <ProfileNotesTab data={data} user={user} /> : <ProfileFoldersTab data={data} user={user} />}
    </section>
  );
}

export const shouldRevalidate = keepAfterAnsweredActions;
