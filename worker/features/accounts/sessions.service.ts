// Where a person is signed in (issue 17 item 4): one D1 row per session (lib/session.ts). Ending a
// session deletes its row, and every request checks the row, so it stops working at once.
import Bowser from "bowser";
import { and, desc, eq, gt, ne } from "drizzle-orm";
import { sessions } from "../../db/schema/users";
import type { DB } from "../../env";
import { notFound } from "../../lib/errors";

export interface SessionJson {
  id: string;
  device: string;
  created_at: number;
  last_active_at: number;
  current: boolean;
}

/** "Firefox on Windows", "Safari on iPhone", or "Unknown device" for an empty or odd user agent. */
export function deviceOf(userAgent: string): string {
  if (!userAgent.trim()) return "Unknown device";
  try {
    const p = Bowser.parse(userAgent);
    const browser = p.browser.name ?? "";
    const where = p.platform.model && p.platform.vendor === "Apple" ? p.platform.model : (p.os.name ?? "");
    if (browser && where) return `${browser} on ${where}`;
    return browser || where || "Unknown device";
  } catch {
    return "Unknown device";
  }
}

/** At most this many are listed (newest first); a person rarely has more than a handful. */
const LIST_MAX = 100;

export async function listSessions(db: DB, uid: number, currentSid: string | null): Promise<SessionJson[]> {
  const rows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, uid), gt(sessions.expiresAt, Date.now())))
    .orderBy(desc(sessions.createdAt))
    .limit(LIST_MAX);
  return rows.map((r) => ({
    id: r.id,
    device: deviceOf(r.userAgent),
    created_at: r.createdAt,
    last_active_at: r.lastSeenAt,
    current: r.id === currentSid,
  }));
}

/** Ends one of the person's own sessions (ownership in the where: another's id is not found). */
export async function endOne(db: DB, uid: number, id: string) {
  const gone = await db
    .delete(sessions)
    .where(and(eq(sessions.id, id), eq(sessions.userId, uid)))
    .returning({ id: sessions.id });
  if (!gone.length) throw notFound("Session not found");
  return { ended: 1 };
}

/** Ends every session of the person but the one making the request. */
export async function endOthers(db: DB, uid: number, currentSid: string | null) {
  const gone = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, uid), currentSid ? ne(sessions.id, currentSid) : undefined))
    .returning({ id: sessions.id });
  return { ended: gone.length };
}
