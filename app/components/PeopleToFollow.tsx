import { useState } from "react";
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

/**
 * The people shown stay where they are while the page is open: a follow revalidates the page, whose
 * new list leaves out whoever was just followed, and that person should stay, saying Following,
 * as on the sites people know, until the page is left. Newcomers to the list are not added
 * meanwhile (the list does not grow under the pointer); the next visit shows the new list.
 */
function useShownOnce(people: SuggestedPerson[]) {
  const [shown, setShown] = useState(people);
  if (shown.length === 0 && people.length > 0) setShown(people);
  return shown;
}

/** People to follow (the most-followed active accounts one does not follow yet), or nothing. */
export function PeopleToFollow({ people, title = "People to follow" }: { people: SuggestedPerson[]; title?: string }) {
  const shown = useShownOnce(people);
  if (!shown.length) return null;
  return (
    <section className="people-to-follow" aria-label={title}>
      <h2>{title}</h2>
      <ul>
        {shown.map((p) => (
          <Suggested key={p.id} person={p} />
        ))}
      </ul>
    </section>
  );
}
