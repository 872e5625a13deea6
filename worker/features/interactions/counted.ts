// The counted, notified, federated interactions (a like, a renote), each declared once: how its
// notice reads, which Mastodon notification type it is, which activity carries it between
// servers, what connected people are sent of it, and what deleting an account takes of it. The
// doors read these entries instead of listing kinds: the notifications page and the notices' links,
// Mastodon's notifications, the inbox and the outbox, the live fan-out, account deletion
// (decision 029 lists the files a new kind touches). Plain data, so a page may import it;
// tests/unit/counted-kinds.test.ts fails when a declared kind is missing from a door.
import type { IconName } from "../../../app/components/icons";

/** The ActivityPub activities a kind may travel as (federation/activities.ts holds their classes). */
export type ActivityName = "Like" | "Announce";

export interface CountedKind<N extends string = string> {
  /** Its notices' `action` and its queue messages' `notex`. */
  name: N;
  /** Its notice: "<verb> your note “first words”" (or reply, or x-folder), and the notice's icon. */
  notice: { verb: string; icon: IconName };
  /** Its Mastodon notification type, or null: its notices are not sent to apps. */
  mastodon: string | null;
  /**
   * The activity that makes it, here and from here, and whose `Undo` takes it back; null: it is
   * not federated.
   */
  activity: ActivityName | null;
  /**
   * Where its rows are: a table of its own (a person's row about a note, reply or x-folder, counted
   * on it by the table's triggers): a deleted account's rows are drained from it, and the doors
   * handle it as a row (the inbox calls its action, the outbox sends its activity to the post's
   * author elsewhere, a connected owner hears of it). "notes": it is a note itself (a renote),
   * which goes with its author's notes and is streamed as a status too.
   */
  rows: string;
  /** The word its state is answered under (`{ liked: true }`) and the content's column that counts it. */
  state: string;
  counter: string;
}

export const LIKE = {
  name: "like",
  notice: { verb: "liked", icon: "heart" },
  mastodon: "favourite",
  activity: "Like",
  rows: "likes",
  state: "liked",
  counter: "likenum",
} as const satisfies CountedKind;

export const RENOTE = {
  name: "renote",
  notice: { verb: "renoted", icon: "repeat-2" },
  mastodon: "reblog",
  activity: "Announce",
  rows: "notes",
  state: "renoted",
  counter: "renum",
} as const satisfies CountedKind;

/** Every counted, notified, federated interaction. */
export const COUNTED = [LIKE, RENOTE] as const satisfies readonly CountedKind[];

type Declared = (typeof COUNTED)[number];

/** A kind's name, as notices and queue messages carry it. */
export type CountedName = Declared["name"];

/** A kind whose rows are a table of its own (a like): every door handles these alike. */
export type RowKind = Exclude<Declared, { rows: "notes" }>;

export type RowKindName = RowKind["name"];

export const ROW_KINDS = COUNTED.filter((k): k is RowKind => k.rows !== "notes");

/** The declared kind named `name` (a notice's action), if it is one. */
export const countedKind = (name: string): CountedKind | undefined => COUNTED.find((k) => k.name === name);
