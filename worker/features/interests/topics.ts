// What a newcomer can say they care about. NoteX files every note under an x-label, and the preset
// x-labels (spec 3) say what kind of note it is, so each topic is a family of them: people who post
// under a topic's labels are the people to suggest for it. Every preset label belongs to one topic;
// custom labels belong to none. Kept apart from zod so pages can import it.

export interface Topic {
  key: string;
  name: string;
  /** One line under the name in the picker: what people post under it. */
  blurb: string;
  labels: string[];
}

export const TOPICS: Topic[] = [
  {
    key: "ideas",
    name: "Ideas and thinking",
    blurb: "Ideas, thoughts and insights",
    labels: ["idea", "thought", "insight"],
  },
  {
    key: "howto",
    name: "How-tos and tips",
    blurb: "Guides, tips, tricks and hacks",
    labels: ["how to", "tip", "trick", "hack", "guide"],
  },
  { key: "research", name: "Research", blurb: "Findings and what is known", labels: ["research", "knowledge"] },
  { key: "learning", name: "Learning", blurb: "What people learn and find useful", labels: ["learn", "useful"] },
  {
    key: "practice",
    name: "Best practices",
    blurb: "Solutions and ways of working that hold up",
    labels: ["best practice", "solution"],
  },
  { key: "ai", name: "AI", blurb: "Machines that learn, and what they mean", labels: ["a.i."] },
  {
    key: "stories",
    name: "Stories and journals",
    blurb: "Stories, memos and notes from work",
    labels: ["story", "memo", "note"],
  },
  {
    key: "inspiration",
    name: "Inspiration",
    blurb: "Beautiful, awesome and calm things",
    labels: ["beauty", "awesome", "cool", "chill"],
  },
];

export const TOPIC_KEYS = TOPICS.map((t) => t.key) as [string, ...string[]];

/** The topic an x-label belongs to, if any. */
export const TOPIC_OF_LABEL = new Map(TOPICS.flatMap((t) => t.labels.map((l) => [l, t.key] as const)));
