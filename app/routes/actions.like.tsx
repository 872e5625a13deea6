import { learnAnswer } from "~/lib/counts";
import { redirect } from "@remix-run/cloudflare";
import { toggleAction } from "~/lib/actions.server";
import { TOGGLES } from "~/lib/toggle";

export const action = toggleAction(TOGGLES.like.off, (api) => api.v1.likes[":id"]);

export const loader = () => redirect("/");

export const clientAction = learnAnswer;
