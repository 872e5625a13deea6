import { type SQL, and, eq, type Placeholder, sql } from "drizzle-orm";
import { bindPlan, namedObjects, planOf } from "../../db/plan";
import { namedRead, type Read } from "../../db/reads";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import {
  PERSON_COLUMNS,
  SUGGESTION_ORDER,
  type SuggestedPerson,
  suggestable,
  suggestionsRead,
} from "../follows/suggestions.service";
import { TOPIC_OF_LABEL, TOPICS } from "./topics";

export interface TopicGroup {
  /** A topic's key, or "more" for people suggested whatever they post about. */
  topic: string;
  name: string;
  people: SuggestedPerson[];
}

export interface Onboarding {
  /** The topics the person chose, in the offered order. */
  topics: string[];
  groups: TopicGroup[];
}

/** People who post under the chosen topics, walked from the most followed down. */
const TOPICAL = 40;
/** At most this many in one topic, so every chosen topic shows. */
const PER_TOPIC = 8;
/** Fewer than this in the topics and the most-followed active people fill in under "more". */
const AT_LEAST = 18;

/** The chosen topics of a stored value, in the offered order (anything else dropped). */
export const topicsOf = (stored: unknown): string[] => {
  const chosen = new Set<unknown>(Array.isArray(stored) ? stored : []);
  return TOPICS.filter((t) => chosen.has(t.key)).map((t) => t.key);
};

/** What the person cares about, kept on the account in the offered order. */
export async function saveInterests(db: DB, uid: number, topics: string[]) {
  const kept = topicsOf(topics);
  await db
    .update(users)
    .set({ interests: JSON.stringify(kept) })
    .where(eq(users.id, uid));
  return { topics: kept };
}

// Which topic each preset x-label belongs to, written into the statement as literals (constants of
// the code, never a request's value), so the statement carries no parameters for them.
const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;
const LABEL_TOPIC = sql.raw(
  `case ul.label ${[...TOPIC_OF_LABEL].map(([label, topic]) => `when ${lit(label)} then ${lit(topic)}`).join(" ")} end`,
);

/** The candidate's tallies (user_labels, by its primary key) under the topics `viewer` chose. */
const chosenTallies = (viewer: Placeholder | SQL) => sql`select ul.label, ul.n from user_labels ul
  where ul.user_id = ${users.id} and ul.n > 0
    and ${LABEL_TOPIC} in (select j.value from users m, json_each(m.interests) j where m.id = ${viewer})`;

interface Candidate extends SuggestedPerson {
  /** JSON {label: notes}: the candidate's notes under the chosen topics' labels. */
  labels: string;
}

/** The chosen topic a candidate posts under most (ties: the earlier topic). */
function topicOf(candidate: Candidate): string {
  const notes = new Map<string, number>();
  for (const [label, n] of Object.entries(JSON.parse(candidate.labels) as Record<string, number>)) {
    const topic = TOPIC_OF_LABEL.get(label);
    if (topic) notes.set(topic, (notes.get(topic) ?? 0) + n);
  }
  let best = "";
  for (const t of TOPICS) if ((notes.get(t.key) ?? 0) > (notes.get(best) ?? 0)) best = t.key;
  return best;
}

const strip = ({ labels: _, ...person }: Candidate): SuggestedPerson => person;

/**
 * People for a newcomer to follow, grouped by the topics they chose: those who post under each
 * topic's x-labels, most followed first, then the most-followed active people as "more" until
 * there are enough. Whom `suggestable` leaves out never shows: oneself, people already followed,
 * blocked either way, suspended, or who never posted. Reads the chosen topics with the people, so
 * a page sends it in its own batch. Both lists walk the users' follower index from the top, each
 * candidate checked by primary keys (its labels, its follow, its blocks).
 */
export function onboardingRead(db: DB, me: number): Read<Onboarding> {
  const mine = planOf("interests", () =>
    db
      .select({ interests: users.interests })
      .from(users)
      .where(eq(users.id, sql.placeholder("me"))),
  );
  const topical = planOf("topic-suggestions", () => {
    const viewer = sql.placeholder("me");
    return db
      .select({
        ...PERSON_COLUMNS,
        follower_num: users.followerNum,
        labels: sql<string>`(select json_group_object(c.label, c.n) from (${chosenTallies(viewer)}) c)`,
      })
      .from(users)
      .where(and(suggestable(), sql`exists(${chosenTallies(viewer)})`))
      .orderBy(...SUGGESTION_ORDER)
      .limit(sql.placeholder("n"));
  });
  const popular = suggestionsRead(db, me, AT_LEAST);
  return namedRead(
    {
      mine: bindPlan(db, mine, { me }),
      topical: bindPlan(db, topical, { me, n: TOPICAL }),
      popular: popular.statements[0],
    },
    (r) => {
      const [row] = namedObjects<{ interests: string }>(mine, r.mine.results);
      const topics = topicsOf(row ? JSON.parse(row.interests) : []);
      const byTopic = new Map<string, SuggestedPerson[]>(topics.map((t) => [t, []]));
      for (const c of namedObjects<Candidate>(topical, r.topical.results)) {
        const group = byTopic.get(topicOf(c));
        if (group && group.length < PER_TOPIC) group.push(strip(c));
      }
      const groups: TopicGroup[] = TOPICS.filter((t) => byTopic.get(t.key)?.length).map((t) => ({
        topic: t.key,
        name: t.name,
        people: byTopic.get(t.key) ?? [],
      }));
      const shown = new Set(groups.flatMap((g) => g.people.map((p) => p.id)));
      const more = popular
        .value([r.popular])
        .filter((p) => !shown.has(p.id))
        .slice(0, Math.max(0, AT_LEAST - shown.size));
      if (more.length)
        groups.push({
          topic: "more",
          name: topics.length ? "More people to follow" : "Popular on NoteX",
          people: more,
        });
      return { topics, groups };
    },
  );
}
