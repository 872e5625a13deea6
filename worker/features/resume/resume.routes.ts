// /{username}/resume.json: the portfolio as a JSON Resume document, beside the profile it comes
// from (as the RSS feed is). Public data only, so any site may read it.
import { Hono } from "hono";
import { dbFor } from "../../db/client";
import { readTogether } from "../../db/reads";
import type { AppEnv } from "../../env";
import { notFound } from "../../lib/errors";
import { siteOrigin } from "../accounts/accounts.service";
import { formerOwner, MOVED_CACHE } from "../users/users.service";
import { safeRedirect } from "../../../app/lib/url";
import { portfolioRead } from "./resume.read";
import { toJsonResume } from "./resume.json";

export const resumeRoutes = new Hono<AppEnv>().get("/:username/resume.json", async (c) => {
  const name = c.req.param("username");
  const db = dbFor(c.env.DB);
  const { portfolio } = await readTogether(db, { portfolio: portfolioRead(db, { username: name }) });
  if (!portfolio.ok) {
    // A renamed account's old address follows it, as its feed does.
    const owner = await formerOwner(db, name);
    if (!owner) throw notFound("User not found");
    c.header("Cache-Control", MOVED_CACHE);
    return c.redirect(safeRedirect(`/${owner.username}/resume.json`), 301);
  }
  return c.json(toJsonResume(portfolio.data, siteOrigin(c.env, c.req.url)), 200, {
    "Cache-Control": "public, max-age=300",
    "Access-Control-Allow-Origin": "*",
  });
});
