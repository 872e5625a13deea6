import { createRoute } from "@hono/zod-openapi";
import { readOne } from "../../db/reads";
import { me } from "../../lib/session";
import { type Answer, jsonBody, readBody, router, signedIn, typed } from "../../lib/validate";
import { InterestsInput } from "./interests.schema";
import { onboardingRead, saveInterests } from "./interests.service";
import { TOPICS } from "./topics";

const offered = createRoute({
  method: "get",
  path: "/topics",
  summary: "The topics one can say one cares about, and the x-labels each stands for",
  responses: { 200: typed<{ topics: typeof TOPICS }>("The topics") },
});
const save = createRoute({
  method: "put",
  path: "/",
  summary: "Say which topics you care about (people are suggested from them)",
  ...signedIn(readBody),
  request: { body: jsonBody(InterestsInput) },
  responses: { 200: typed<Answer<typeof saveInterests>>("The topics kept") },
});
const people = createRoute({
  method: "get",
  path: "/people",
  summary: "People to follow, grouped by the topics you chose",
  ...signedIn(),
  responses: { 200: typed<Answer<typeof onboardingRead>>("Groups") },
});

export const interestRoutes = router()
  .openapi(offered, (c) => c.json({ topics: TOPICS }, 200))
  .openapi(save, async (c) => c.json(await saveInterests(c.var.db, me(c).id, c.req.valid("json").topics), 200))
  .openapi(people, async (c) => c.json(await readOne(c.var.db, onboardingRead(c.var.db, me(c).id)), 200));
