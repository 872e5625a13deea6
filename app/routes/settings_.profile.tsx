import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { redirect } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { ProfileForm } from "~/components/profile/ProfileForm";
import { PROFILE_FIELDS } from "~/components/profile/profileFields";
import { Toast } from "~/components/Toast";
import { fieldTexts } from "~/lib/notices";
import { readPage } from "~/lib/page.server";

export const meta: MetaFunction = () => [{ title: "Profile · Settings · NoteX" }];

/**
 * Settings → Profile: the whole profile on a page of its own (the profile's Edit Profile dialog
 * is the same form): what a CV's reader sees first, and a way to see it as they do.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer } = await readPage(request, context, {});
  if (!viewer.user) throw redirect("/login");
  const url = new URL(request.url);
  return {
    viewer,
    user: viewer.user,
    errors: fieldTexts(url.searchParams.get("profile_error"), PROFILE_FIELDS),
    saved: url.searchParams.get("saved") === "profile",
  };
}

export default function ProfileSettings() {
  const { user, errors, saved } = useLoaderData<typeof loader>();
  return (
    <section className="page narrow settings-profile">
      <p>
        <Link to="/settings">← Settings</Link>
      </p>
      <div className="page-title">
        <h1>Profile</h1>
        <Link to={`/${user.username}?as=visitor`} className="btn small">
          See as visitor
        </Link>
      </div>
      <ProfileForm user={user} errors={errors} back="settings" />
      <Toast message={saved ? "Profile saved" : null} id={saved ? "profile" : undefined} />
    </section>
  );
}
