// The hourly cleanup's OAuth job (run by features/cleanup): registering an app costs nothing, so a
// registration no person authorised within a day goes, with its app-only tokens and codes (their
// foreign keys cascade); and app-only tokens past their lifetime go. Bounded per run, oldest first.
import { inArray, sql } from "drizzle-orm";
import { oauthApps, oauthTokens } from "../../db/schema/oauth";
import type { DB } from "../../env";
import type { JobReport } from "../cleanup/cleanup.service";
import { APP_TOKEN_TTL_MS } from "./tokens";

export const UNUSED_APP_TTL_MS = 24 * 60 * 60 * 1000;
export const OAUTH_JOB = "oauth-apps";
const PER_RUN = 500;

export async function expireOAuth(db: DB, now: number): Promise<JobReport> {
  const tokenCutoff = now - APP_TOKEN_TTL_MS;
  // An app still holding a live app-only token is in use, even if no person has authorised it yet.
  const [apps, tokens] = await db.batch([
    db.delete(oauthApps).where(
      inArray(
        oauthApps.id,
        sql`(select a.id from oauth_apps a where a.used_at is null and a.created_at < ${now - UNUSED_APP_TTL_MS}
              and not exists (select 1 from oauth_tokens t where t.app_id = a.id and t.created_at > ${tokenCutoff})
              order by a.created_at limit ${PER_RUN})`,
      ),
    ),
    db
      .delete(oauthTokens)
      .where(
        inArray(
          oauthTokens.id,
          sql`(select id from oauth_tokens where created_at <= ${tokenCutoff} order by created_at limit ${PER_RUN})`,
        ),
      ),
  ]);
  const removed = apps.meta.changes ?? 0;
  const expired = tokens.meta.changes ?? 0;
  return { job: OAUTH_JOB, removed, expiredTokens: expired, more: removed === PER_RUN || expired === PER_RUN };
}
