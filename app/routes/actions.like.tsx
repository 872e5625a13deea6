import { redirect } from "@remix-run/cloudflare";
import { toggleAction } from "~/lib/actions.server";

export const action = toggleAction("unlike", (api) => api.v1.likes[":id"]);

export const loader = () => redirect("/");
