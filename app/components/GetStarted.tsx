import { Link } from "@remix-run/react";
import type { UserJson } from "../../worker/features/users/users.service";
import type { SuggestedPerson } from "../../worker/features/follows/suggestions.service";
import { Icon } from "./Icon";
import { PeopleToFollow } from "./PeopleToFollow";

/**
 * A new account's first steps, on Home until they are done: a face and a few words, a first
 * x-folder, three people followed (on the welcome page, by what the person cares about). Each step
 * opens where it is done.
 */
export function GetStarted({ user, people = [] }: { user: UserJson; people?: SuggestedPerson[] }) {
  const steps = [
    { done: !!(user.avatar && user.descr), to: `/${user.username}?dialog=edit-profile`, text: "Add a photo and a bio" },
    {
      done: Object.values(user.types).some((n) => n > 0),
      to: `/${user.username}?dialog=folder`,
      text: "Create your first x-folder: a job, a project, a course…",
    },
    {
      done: user.stats.following >= 3,
      to: "/welcome",
      text: `Follow three people whose notes you like (${Math.min(3, user.stats.following)}/3)`,
    },
  ];
  if (steps.every((s) => s.done)) return null;
  return (
    <section className="get-started" aria-labelledby="get-started-title">
      <h2 id="get-started-title">Get started</h2>
      <ol>
        {steps.map((s) => (
          <li key={s.to} className={s.done ? "done" : undefined}>
            <Icon name={s.done ? "circle-check" : "circle"} size={20} />
            {s.done ? (
              <span>
                {s.text} <span className="sr-only">(done)</span>
              </span>
            ) : (
              <Link to={s.to}>{s.text}</Link>
            )}
          </li>
        ))}
      </ol>
      {user.stats.following < 3 && <PeopleToFollow people={people} title="Suggested people" />}
    </section>
  );
}

/** Until the address is confirmed: a banner saying so, with where to ask for a new link. */
export function ConfirmEmailBanner({ user }: { user: UserJson }) {
  if (user.confirmed || !user.email) return null;
  return (
    <p className="notice warn confirm-banner" role="status">
      <Icon name="mail" size={18} /> Confirm your email: we sent a link to <strong>{user.email}</strong>
      <Link to="/settings#email">Send it again</Link>
    </p>
  );
}
