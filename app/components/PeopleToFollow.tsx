import type { SuggestedPerson } from "../../worker/features/follows/suggestions.service";
import { AuthorLink } from "./Avatar";
import { FollowInPlace } from "./FollowInPlace";

/** One suggested person with a Follow button that flips to Following (a plain form without JavaScript). */
function Suggested({ person }: { person: SuggestedPerson }) {
  return (
    <li className="suggested">
      <AuthorLink user={person} size={40} />
      <FollowInPlace uid={person.id} formClassName="inline" />
    </li>
  );
}

/** People to follow (the most-followed active accounts one does not follow yet), or nothing. */
export function PeopleToFollow({ people, title = "People to follow" }: { people: SuggestedPerson[]; title?: string }) {
  if (!people.length) return null;
  return (
    <section className="people-to-follow" aria-label={title}>
      <h2>{title}</h2>
      <ul>
        {people.map((p) => (
          <Suggested key={p.id} person={p} />
        ))}
      </ul>
    </section>
  );
}
