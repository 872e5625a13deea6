import { useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import type { TopicGroup } from "../../../worker/features/interests/interests.service";
import type { SuggestedPerson } from "../../../worker/features/follows/suggestions.service";
import { AuthorLink } from "../Avatar";
import { Icon } from "../Icon";
import { PersonActionForm } from "../PersonActionForm";

/** A person to follow as a card: face, name, bio and a Follow button that turns into Following in place. */
function PersonCard({ person, back, onFollowed }: { person: SuggestedPerson; back: string; onFollowed: () => void }) {
  const fetcher = useFetcher<{ ok: boolean; data?: { following: boolean } }>();
  const following = !!(fetcher.data?.ok && fetcher.data.data?.following);
  useEffect(() => {
    if (following) onFollowed();
  }, [following, onFollowed]);
  return (
    <li className="person-card">
      <AuthorLink user={person} size={48} />
      {person.descr && <p className="bio">{person.descr}</p>}
      <div className="follow">
        {following ? (
          <span className="following" role="status">
            <Icon name="circle-check" size={18} /> Following
          </span>
        ) : (
          <PersonActionForm
            fetcher={fetcher}
            action="/actions/follow"
            uid={person.id}
            intent="follow"
            label="Follow"
            className="btn primary small"
            redirectTo={back}
          />
        )}
      </div>
    </li>
  );
}

/** People to follow, a section per topic the person chose (then "more" to make enough). */
export function TopicGroups({ groups, onFollowed }: { groups: TopicGroup[]; onFollowed: () => void }) {
  return (
    <>
      {groups.map((g) => (
        <section
          key={g.topic}
          id={`topic-${g.topic}`}
          className="topic-group"
          aria-labelledby={`topic-${g.topic}-title`}
        >
          <h3 id={`topic-${g.topic}-title`}>{g.name}</h3>
          <ul>
            {g.people.map((p) => (
              <PersonCard key={p.id} person={p} back={`/welcome#topic-${g.topic}`} onFollowed={onFollowed} />
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}
