// Email confirmation, email change and password reset: the rules of issue 17 (items 2 and 3) and
// issue 20 finding 5. Links go out through worker/lib/mail.ts; tokens live in ./tokens.ts.
import { and, eq, sql } from "drizzle-orm";
import { accountTokens, users } from "../../db/schema/users";
import type { CurrentUser, DB, Env } from "../../env";
import { AppError, notFound } from "../../lib/errors";
import { runBatch, runNamed } from "../../db/client";
import { composeMail, sendMail } from "../../lib/mail";
import { hashPassword, verifyPassword } from "../../lib/password";
import { endAllSessions } from "../../lib/sessions";
import { type UserJson, loadUser } from "../users/users.service";
import { issueToken, liveToken, refusal, sentRecently, spendToken, tokenId } from "./tokens";

/** Where links in mail point: the configured site origin, else the request's own (local runs). */
export const siteOrigin = (env: Env, requestUrl: string) => env.APP_ORIGIN || new URL(requestUrl).origin;

export const tooSoon = () =>
  new AppError(429, "rate_limited", "We just sent you a link. Please wait a minute before asking again.");

/** Stores a one-use token and mails `email` its link (`url`?token=…) with the message's lines. */
async function mailTokenLink(
  env: Env,
  db: DB,
  token: Awaited<ReturnType<typeof issueToken>>,
  email: string,
  mail: { subject: string; lines: string[]; label: string; url: string },
) {
  await runBatch(db, token.statements);
  await sendMail(
    env,
    db,
    composeMail(email, mail.subject, mail.lines, { label: mail.label, url: `${mail.url}?token=${token.token}` }),
  );
}

/** Stores a confirmation token for `email` (the account's address or its pending one) and mails the link. */
export async function sendConfirmation(env: Env, db: DB, uid: number, email: string, origin: string) {
  await mailTokenLink(env, db, await issueToken(db, uid, "confirm", email), email, {
    subject: "Confirm your email for NoteX",
    lines: [
      "Please confirm that this is your email address for NoteX.",
      "The link works once and expires in 24 hours. If you did not ask for this, you can ignore this message.",
    ],
    label: "Confirm my email",
    url: `${origin}/confirm`,
  });
}

/** POST /v1/email/confirm: sends the link again, to the pending address if there is one. */
export async function requestConfirmation(env: Env, db: DB, uid: number, origin: string) {
  const [u] = await db
    .select({ email: users.email, pending: users.pendingEmail, confirmed: users.confirmed })
    .from(users)
    .where(eq(users.id, uid));
  if (!u) throw notFound("User not found");
  const to = u.pending ?? (u.confirmed ? null : u.email);
  if (!to) throw new AppError(409, "already_confirmed", "Your email is already confirmed.");
  if (await sentRecently(db, uid, "confirm")) throw tooSoon();
  await sendConfirmation(env, db, uid, to, origin);
  return { sent: true, to };
}

/**
 * /confirm?token=…: a pending address becomes the account's email, or the current one is marked
 * confirmed. One batch: the effect and the token's deletion land together, or not at all.
 */
export async function confirmEmail(db: DB, raw: unknown): Promise<{ email: string }> {
  const id = await tokenId(raw);
  if (!id) throw refusal([]);
  const now = Date.now();
  let results: Awaited<ReturnType<typeof confirmBatch>>;
  try {
    results = await confirmBatch(db, id, now);
  } catch (e) {
    // Another account confirmed this address first; nothing changed and the link still works.
    if (String(e).includes("UNIQUE") || String((e as { cause?: unknown })?.cause).includes("UNIQUE"))
      throw new AppError(409, "email_taken", "email is already in use");
    throw e;
  }
  const done = results.changed[0] ?? results.confirmed[0];
  if (!done) throw refusal(results.spent);
  return { email: done.email };
}

/** Confirming with token `id`: the pending address taken, or the current one marked; the token spent. */
const confirmBatch = (db: DB, id: string, now: number) =>
  runNamed(db, {
    changed: db
      .update(users)
      .set({ email: sql`${users.pendingEmail}`, pendingEmail: null, confirmed: true })
      .where(liveToken(id, "confirm", now, sql`and t.email = users.pending_email`))
      .returning({ email: users.email }),
    confirmed: db
      .update(users)
      .set({ confirmed: true })
      .where(liveToken(id, "confirm", now, sql`and t.email = users.email`))
      .returning({ email: users.email }),
    spent: spendToken(db, id, "confirm"),
  });

/** An account without a password proves it is the person by having signed in this recently. */
export const FRESH_SIGN_IN_MS = 10 * 60 * 1000;

const badPassword = () =>
  new AppError(401, "bad_password", "current password is not correct.", {
    password: "current password is not correct.",
  });

/**
 * What may hand the account to whoever asks (its email: a reset link goes there) needs the current
 * password, as on GitHub and Mastodon; a stolen cookie alone is not enough. An account without a
 * password (Google only) needs a sign-in within FRESH_SIGN_IN_MS instead.
 */
async function proveIdentity(hash: string | null, user: CurrentUser, password: string | undefined) {
  if (hash) {
    if (!(await verifyPassword(password ?? "", hash))) throw badPassword();
    return;
  }
  const since = user.signedInAt;
  if (since === undefined || Date.now() - since > FRESH_SIGN_IN_MS)
    throw new AppError(
      403,
      "reauth_required",
      "Please sign in again to change your email: your last sign-in was more than 10 minutes ago.",
    );
}

/**
 * PATCH /v1/users/email: the new address is only pending until its link is opened (issue 20 #5: an
 * account cannot take an address it does not own); the current address is told of the change.
 */
export async function changeEmail(
  env: Env,
  db: DB,
  user: CurrentUser,
  input: { email: string; password?: string },
  origin: string,
): Promise<UserJson> {
  const uid = user.id;
  const { email } = input;
  const [u] = await db
    .select({ email: users.email, pending: users.pendingEmail, hash: users.passwordHash })
    .from(users)
    .where(eq(users.id, uid));
  if (!u) throw notFound("User not found");
  if (u.email === email) {
    // Asking for the current address again withdraws a pending change.
    if (u.pending)
      await db.batch([
        db.update(users).set({ pendingEmail: null }).where(eq(users.id, uid)),
        db.delete(accountTokens).where(and(eq(accountTokens.userId, uid), eq(accountTokens.purpose, "confirm"))),
      ]);
    return loadUser(db, { id: uid }, uid);
  }
  // Withdrawing (above) only keeps the address the account has; a new one must prove it is the person.
  await proveIdentity(u.hash, user, input.password);
  const [other] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (other) throw new AppError(409, "email_taken", "email is already in use");
  if (u.pending === email && (await sentRecently(db, uid, "confirm"))) throw tooSoon();
  await db.update(users).set({ pendingEmail: email }).where(eq(users.id, uid));
  await sendConfirmation(env, db, uid, email, origin);
  await sendMail(
    env,
    db,
    composeMail(u.email, "Your NoteX email is being changed", [
      `Someone signed in to your NoteX account asked to change its email address to ${email}.`,
      "Nothing changes until that address is confirmed. If this was not you, change your password now: it ends every other session.",
    ]),
  );
  return loadUser(db, { id: uid }, uid);
}

/**
 * POST /v1/password/forgot, the part that runs after the answer: the caller answers the same 200
 * at once whether or not the address belongs to anyone, so neither body nor timing tells.
 */
export async function sendReset(env: Env, db: DB, email: string, origin: string) {
  const [u] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (!u || (await sentRecently(db, u.id, "reset"))) return;
  await mailTokenLink(env, db, await issueToken(db, u.id, "reset"), email, {
    subject: "Reset your NoteX password",
    lines: [
      "Someone asked to reset the password of the NoteX account that uses this address.",
      "The link works once and expires in 1 hour. If you did not ask for this, ignore this message: your password stays as it is.",
    ],
    label: "Choose a new password",
    url: `${origin}/reset`,
  });
}

/**
 * POST /v1/password/reset: sets the password and marks the address confirmed (the link proved
 * it), in one batch with the token's use; then ends every session of the account (KV).
 */
export async function resetPassword(env: Env, db: DB, raw: unknown, password: string) {
  const id = await tokenId(raw);
  const hash = await hashPassword(password);
  if (!id) throw refusal([]);
  const now = Date.now();
  const [updated, spent] = await db.batch([
    db
      .update(users)
      .set({ passwordHash: hash, confirmed: true })
      .where(liveToken(id, "reset", now, sql`and t.email = ''`))
      .returning({ id: users.id, email: users.email }),
    spendToken(db, id, "reset"),
  ]);
  const u = updated[0];
  if (!u) throw refusal(spent);
  await endAllSessions(env, u.id);
  await sendMail(
    env,
    db,
    composeMail(u.email, "Your NoteX password was changed", [
      "The password of your NoteX account was just reset with a link sent to this address, and every session was signed out.",
      "If this was not you, reset it again from the login page and check the email address in Settings.",
    ]),
  );
  return { ok: true };
}
