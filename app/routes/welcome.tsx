import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data, redirect } from "@remix-run/cloudflare";
import { Link, type ShouldRevalidateFunction, useActionData, useLoaderData } from "@remix-run/react";
import { useCallback, useState } from "react";
import { TopicGroups } from "~/components/onboarding/TopicGroups";
import { TopicPicker } from "~/components/onboarding/TopicPicker";
import { apiFor, result } from "~/lib/api.server";
import { errorText } from "~/lib/errors";
import { must, readPage } from "~/lib/page.server";
import { useViewer } from "~/lib/viewer";
import { known } from "../../worker/db/reads";
import { onboardingRead } from "../../worker/features/interests/interests.service";

export const meta: MetaFunction = () => [{ title: "Welcome · NoteX" }];

// Where a new account lands: what the person cares about, then people to follow grouped by it,
// all in one D1 round trip.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { viewer, reads } = await readPage(request, context, {
    onboarding: (db, me) => (me ? onboardingRead(db, me) : known(null)),
  });
  const onboarding = must(viewer, reads.onboarding);
  if (!viewer.user || !onboarding) throw redirect("/login");
  return { viewer, ...onboarding };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const form = await request.formData();
  const topics = form.getAll("topics").map(String);
  const res = await result(apiFor(request, context).v1.interests.$put({ json: { topics } }));
  if (!res.ok) return data({ error: errorText(res.error) }, { status: res.status });
  return redirect("/welcome#people");
}

export default function Welcome() {
  const { topics, groups } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const user = useViewer();
  // Followed here with JavaScript: the cards stay, turned to Following, so the count moves here.
  const [followedHere, setFollowedHere] = useState(0);
  const following = (user?.stats.following ?? 0) + followedHere;
  const followed = useCallback(() => setFollowedHere((n) => n + 1), []);
  return (
    <section className="page welcome-page">
      <h1>Welcome to NoteX{user ? `, ${user.fullname.split(" ")[0]}` : ""}</h1>
      <p className="lead">
        Follow people and their notes fill your Following feed. Tell us what you care about to see who writes about it.
      </p>
      <TopicPicker chosen={topics} error={failed?.error ?? undefined} />
      <section id="people" className="people-by-topic" aria-labelledby="people-title">
        <div className="people-head">
          <h2 id="people-title">People to follow</h2>
          <p className="muted" role="status">
            You follow {following} {following === 1 ? "person" : "people"}.
          </p>
        </div>
        {groups.length ? (
          <TopicGroups groups={groups} onFollowed={followed} />
        ) : (
          <p className="empty">Nobody to suggest yet: be one of the first to post.</p>
        )}
      </section>
      <p className="welcome-done">
        <Link className="btn primary" to="/?tab=following">
          Done: go to your feed
        </Link>
      </p>
    </section>
  );
}

// A follow answers its new state and the card shows it; reading the page again would take the
// person away (people already followed are not suggested) from under the pointer.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction === "/actions/follow" ? false : defaultShouldRevalidate;
