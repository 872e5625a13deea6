import { eq, sql } from "drizzle-orm";
import { users } from "../../db/schema/users";
import type { DB } from "../../env";
import { AppError } from "../../lib/errors";
import { hashPassword, needsRehash, verifyPassword } from "../../lib/password";
import { claimName, usernameTaken } from "../users/users.service";

export interface SignupData {
  email: string;
  name: string;
  username: string;
  password: string;
}

const isUnique = (e: unknown, index: string) =>
  String((e as Error)?.message ?? e).includes(index) || String((e as { cause?: unknown })?.cause ?? "").includes(index);

export async function signup(db: DB, input: SignupData) {
  if (await usernameTaken(db, input.username)) {
    throw new AppError(409, "username_taken", "Username already exists. Please choose another.", {
      username: "Username already exists. Please choose another.",
    });
  }
  const [byEmail] = await db.select({ id: users.id }).from(users).where(eq(users.email, input.email)).limit(1);
  if (byEmail) throw new AppError(409, "email_taken", "email is already in use", { email: "email is already in use" });
  try {
    const [[row]] = await db.batch([
      db
        .insert(users)
        .values({
          username: input.username,
          email: input.email,
          fullname: input.name,
          passwordHash: await hashPassword(input.password),
        })
        .returning(),
      claimName(db, input.username),
    ]);
    return row;
  } catch (e) {
    // Two sign-ups racing for one name: the unique index decides, the loser gets the spec's 409.
    if (isUnique(e, "username") || isUnique(e, "users.username")) {
      throw new AppError(409, "username_taken", "Username already exists. Please choose another.");
    }
    if (isUnique(e, "email")) throw new AppError(409, "email_taken", "email is already in use");
    throw e;
  }
}

/** Checks a username (or email) and password; upgrades an old hash format on success. */
/**
 * Checks a password login. `limit` spends the per-account guessing budget before the password is
 * verified, keyed by the account the identifier resolves to (its username and its email share one
 * budget), or by the normalised identifier when it names no one.
 */
export async function login(
  db: DB,
  username: string,
  password: string,
  limit: (key: string) => Promise<void> = async () => {},
) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${username} or ${users.email} = ${username}`)
    .limit(1);
  await limit(row ? `login-account:${row.id}` : `login-user:${username}`);
  const ok = await verifyPassword(password, row?.passwordHash ?? null);
  if (!row || !ok) throw new AppError(401, "bad_credentials", "Username or password is incorrect.");
  assertNotSuspended(row);
  if (row.passwordHash && needsRehash(row.passwordHash)) {
    await db
      .update(users)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(users.id, row.id));
  }
  return row;
}

/** A suspended account cannot sign in (told only after its password or Google identity checked out). */
export function assertNotSuspended(row: { suspendedAt: number | null }) {
  if (row.suspendedAt)
    throw new AppError(
      403,
      "account_suspended",
      "Your account has been suspended by the moderators. Check the notice we sent you, or contact support.",
    );
}

/** Verifies the current password and stores the new one (the route then ends every session). */
export async function changePassword(db: DB, uid: number, current: string, next: string) {
  const [row] = await db.select().from(users).where(eq(users.id, uid));
  if (!row || !(await verifyPassword(current, row.passwordHash))) {
    throw new AppError(401, "bad_password", "current password is not correct.", {
      password: "current password is not correct.",
    });
  }
  const [updated] = await db
    .update(users)
    .set({ passwordHash: await hashPassword(next) })
    .where(eq(users.id, uid))
    .returning();
  return updated;
}
