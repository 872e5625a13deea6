// Access tokens held by Mastodon apps. The small interface here (grant, read, list, end) is what the
// rest of the feature uses; the rows are D1's oauth_tokens, checked against the account's session
// epoch in the same query, so a password change or "log out everywhere" ends them too.
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { oauthApps, oauthTokens } from "../../db/schema/oauth";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { notFound } from "../../lib/errors";
import { later } from "../../lib/later";
import { hashSecret, randomToken, TOUCH_EVERY_MS } from "../../lib/session";
import type { Context } from "hono";
import type { AppEnv } from "../../env";

export interface TokenOwner {
  /** Null for an app-only token (client_credentials). */
  user: { id: number; username: string } | null;
  app: { id: number; clientId: string; name: string; website: string | null };
  scopes: string[];
  /** The stored id (hash of the secret). */
  id: string;
}

/** A new token for `userId` (null: the app itself) with `scopes`; answers the bearer secret, shown once. */
export async function grantToken(db: DB, appId: number, userId: number | null, scopes: string[]) {
  const secret = randomToken();
  const now = Date.now();
  const ep = userId ? sql`(select ${users.sessionEpoch} from ${users} where ${users.id} = ${userId})` : sql`0`;
  await db.insert(oauthTokens).values({
    id: await hashSecret(secret),
    appId,
    userId,
    ep: ep as unknown as number,
    scopes: scopes.join(" "),
    createdAt: now,
    lastSeenAt: now,
  });
  return { secret, createdAt: now };
}

/** Who a bearer secret speaks for, or null: unknown, ended, from an older epoch, or a suspended account. */
export async function readToken(c: Context<AppEnv>, secret: string): Promise<TokenOwner | null> {
  if (secret.length > 200) return null;
  const id = await hashSecret(secret);
  const [row] = await c.var.db
    .select({
      userId: oauthTokens.userId,
      username: users.username,
      scopes: oauthTokens.scopes,
      lastSeenAt: oauthTokens.lastSeenAt,
      appId: oauthApps.id,
      clientId: oauthApps.clientId,
      name: oauthApps.name,
      website: oauthApps.website,
    })
    .from(oauthTokens)
    .innerJoin(oauthApps, eq(oauthApps.id, oauthTokens.appId))
    .leftJoin(users, eq(users.id, oauthTokens.userId))
    .where(
      and(
        eq(oauthTokens.id, id),
        or(isNull(oauthTokens.userId), and(eq(users.sessionEpoch, oauthTokens.ep), isNull(users.suspendedAt))),
      ),
    )
    .limit(1);
  if (!row) return null;
  const now = Date.now();
  if (now - row.lastSeenAt > TOUCH_EVERY_MS)
    later(c, "token touch", () =>
      c.var.db
        .update(oauthTokens)
        .set({ lastSeenAt: now })
        .where(and(eq(oauthTokens.id, id), lt(oauthTokens.lastSeenAt, now - TOUCH_EVERY_MS)))
        .run(),
    );
  return {
    id,
    user: row.userId && row.username ? { id: row.userId, username: row.username } : null,
    app: { id: row.appId, clientId: row.clientId, name: row.name, website: row.website },
    scopes: row.scopes.split(" ").filter(Boolean),
  };
}

export interface AuthorisedApp {
  id: string;
  name: string;
  website: string | null;
  scopes: string[];
  created_at: number;
  last_used_at: number;
}

/** The apps a person has let in (newest first), for Settings → Authorised apps. */
export async function listTokens(db: DB, uid: number): Promise<AuthorisedApp[]> {
  const rows = await db
    .select({
      id: oauthTokens.id,
      name: oauthApps.name,
      website: oauthApps.website,
      scopes: oauthTokens.scopes,
      createdAt: oauthTokens.createdAt,
      lastSeenAt: oauthTokens.lastSeenAt,
    })
    .from(oauthTokens)
    .innerJoin(oauthApps, eq(oauthApps.id, oauthTokens.appId))
    .innerJoin(users, eq(users.id, oauthTokens.userId))
    .where(and(eq(oauthTokens.userId, uid), eq(oauthTokens.ep, users.sessionEpoch)))
    .orderBy(desc(oauthTokens.createdAt))
    .limit(100);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    website: r.website,
    scopes: r.scopes.split(" "),
    created_at: r.createdAt,
    last_used_at: r.lastSeenAt,
  }));
}

/** Ends one of the person's own tokens (ownership in the where: another's is not found). */
export async function endToken(db: DB, uid: number, id: string) {
  const gone = await db
    .delete(oauthTokens)
    .where(and(eq(oauthTokens.id, id), eq(oauthTokens.userId, uid)))
    .returning({ id: oauthTokens.id });
  if (!gone.length) throw notFound("App not found");
  return { ended: 1 };
}

/** RFC 7009: ends the token `secret` if the app `appId` holds it; an unknown token is no error. */
export async function revokeSecret(db: DB, appId: number, secret: string) {
  await db.delete(oauthTokens).where(and(eq(oauthTokens.id, await hashSecret(secret)), eq(oauthTokens.appId, appId)));
}
