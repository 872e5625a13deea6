import type { TopicGroup } from "../../../worker/features/interests/interests.service";
import type { SuggestedPerson } from "../../../worker/features/follows/suggestions.service";
import { AuthorLink } from "../Avatar";
import { FollowInPlace } from "../FollowInPlace";

/** A person to follow as a card: face, name, bio and a Follow button that turns into Following in place. */
function PersonCard({ person, back, onFollowed }: { person: SuggestedPerson; back: string; onFollowed: () => void }) {
  return (
    <li className="person-card">
      <AuthorLink user={person} size={48} />
      {person.descr && <p className="bio">{person.descr}</p>}
      <div className="follow">
        <FollowInPlace uid={person.id} back={back} onFollowed={onFollowed} />
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
