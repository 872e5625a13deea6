import { z } from "zod";
import { TOPIC_KEYS, TOPICS } from "./topics";

/** The topics a person cares about: any of the offered ones, none at all included (skipped). */
export const InterestsInput = z.object({
  topics: z
    .array(z.enum(TOPIC_KEYS, { error: "choose topics from the list" }), { error: "topics must be a list" })
    .max(TOPICS.length, "choose topics from the list"),
});
