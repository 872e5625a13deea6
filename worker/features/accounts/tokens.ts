// Emailed single-use links (confirm an address, reset a password). The token is 256 random bits
// sent once by email; D1 keeps only its SHA-256. Issuing one deletes the account's older tokens of
// the same purpose in the same batch, and using one deletes it in the same batch as its effect.
import { and, eq, gt, sql } from "drizzle-orm";
import { accountTokens } from "../../db/schema/users";
import type { DB } from "../../env";
import { AppError } from "../../lib/errors";
import { hashSecret, randomToken } from "../../lib/secret";

export type Purpose = "confirm" | "reset";

export const TOKEN_TTL_MS: Record<Purpose, number> = {
  // Spec of issue 17: a reset link lasts one hour.
  reset: 60 * 60 * 1000,
  // A confirmation grants no access, and people open mail later: a day.
  confirm: 24 * 60 * 60 * 1000,
};

/** How soon the same account may be sent another link of a purpose (a cheap, exact throttle). */
export const RESEND_AFTER_MS = 60 * 1000;

export const linkInvalid = () =>
  new AppError(400, "token_invalid", "This link is not valid or has already been used.", {
    token: "This link is not valid or has already been used.",
  });
export const linkExpired = () =>
  new AppError(400, "token_expired", "This link has expired. Please ask for a new one.", {
    token: "This link has expired. Please ask for a new one.",
  });

/** A fresh token for `uid` and `purpose` (voiding older ones), and the statements that store it. */
export async function issueToken(db: DB, uid: number, purpose: Purpose, email = "") {
  const token = randomToken();
  const now = Date.now();
  return {
    token,
    statements: [
      db.delete(accountTokens).where(and(eq(accountTokens.userId, uid), eq(accountTokens.purpose, purpose))),
      db.insert(accountTokens).values({
        id: hashSecret(token),
        userId: uid,
        purpose,
        email,
        expiresAt: now + TOKEN_TTL_MS[purpose],
        createdAt: now,
      }),
    ] as const,
  };
}

/** Whether `uid` was sent a `purpose` link within RESEND_AFTER_MS. */
export async function sentRecently(db: DB, uid: number, purpose: Purpose): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.userId, uid),
        eq(accountTokens.purpose, purpose),
        gt(accountTokens.createdAt, Date.now() - RESEND_AFTER_MS),
      ),
    )
    .limit(1);
  return !!row;
}

/** A token's id, or null when it cannot be one of ours (wrong shape: no lookup needed). */
export async function tokenId(raw: unknown): Promise<string | null> {
  return typeof raw === "string" && /^[A-Za-z0-9_-]{43}$/.test(raw) ? hashSecret(raw) : null;
}

/** SQL true when token `id` of `purpose` exists, is unexpired and belongs to the users row in scope. */
export const liveToken = (id: string, purpose: Purpose, now: number, extra = sql``) =>
  sql`exists(select 1 from account_tokens t where t.id = ${id} and t.purpose = ${purpose} and t.expires_at > ${now} and t.user_id = users.id ${extra})`;

/** The statement that uses the token up (it goes last in the batch), answering what it was. */
export const spendToken = (db: DB, id: string, purpose: Purpose) =>
  db
    .delete(accountTokens)
    .where(and(eq(accountTokens.id, id), eq(accountTokens.purpose, purpose)))
    .returning({ userId: accountTokens.userId, email: accountTokens.email, expiresAt: accountTokens.expiresAt });

/** After a batch whose effect found no live token: expired if the spent row existed, else invalid. */
export function refusal(spent: { expiresAt: number }[]): AppError {
  return spent.length ? linkExpired() : linkInvalid();
}
