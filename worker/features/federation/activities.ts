// The activities counted interactions travel as (interactions/counted.ts names each kind's), as
// Fedify's classes: the inbox listens for them and the outbox builds them. Only the queue consumer
// and the inbox load this (it loads Fedify's vocabulary).
import { type Activity, Announce, Like } from "@fedify/vocab";
import type { ActivityName } from "../interactions/counted";
import { ROWS } from "../interactions/kinds";

export const ACTIVITIES: Record<ActivityName, typeof Activity> = { Like, Announce };

/** The counted interaction with a table of its own that `activity` makes (a Like: a like), if any. */
export const rowOf = (activity: unknown) =>
  ROWS.find((r) => r.kind.activity !== null && activity instanceof ACTIVITIES[r.kind.activity]);
