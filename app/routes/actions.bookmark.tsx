import { redirect } from "@remix-run/cloudflare";
import { toggleAction } from "~/lib/actions.server";

export const action = toggleAction("unsave", (api) => api.v1.bookmarks[":id"]);

export const loader = () => redirect("/");
