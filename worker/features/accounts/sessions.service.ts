// Where a person is signed in (Settings): their sessions in KV (lib/sessions.ts). Ending one
// deletes its keys, and every request reads them, so it stops working at once where it happened.
import Bowser from "bowser";
import type { DB, Env } from "../../env";
import { notFound } from "../../lib/errors";
import { endAllSessions, type SessionStore, listSessions as sessionsOf } from "../../lib/sessions";
import { describeScope } from "../mastodon/scopes";
import { revokeSession } from "../mastodon/tokens";

export interface SessionJson {
  id: string;
  device: string;
  created_at: number;
  last_active_at: number;
  current: boolean;
  /** Set for an app's access token: the app's name (Settings lists these as authorised apps). */
  app?: string;
  /** An app's scopes, and what they let it do in words (the consent page's). */
  scopes?: string[];
  may?: string[];
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

export async function listSessions(kv: KVNamespace, uid: number, currentSid: string): Promise<SessionJson[]> {
  const all = await sessionsOf(kv, uid);
  return all.slice(0, LIST_MAX).map((s) => ({
    id: s.id,
    // An app is named by itself, not by a user agent (its name would read as "Unknown device").
    device: s.app ? s.app.name : deviceOf(s.device),
    created_at: s.created,
    last_active_at: s.seen,
    current: s.id === currentSid,
    ...(s.app ? { app: s.app.name, scopes: s.app.scopes, may: s.app.scopes.map(describeScope) } : {}),
  }));
}

/**
 * Ends one of the person's own sessions (ownership in the key: another's id is not found); an
 * app's ends with every other token of that app.
 */
export async function endOne(env: Env, db: DB, uid: number, id: string) {
  const res = await revokeSession(env, db, uid, id);
  if (!res.ended) throw notFound("Session not found");
  return res;
}

/** Ends every session of the person but the one making the request. */
export async function endOthers(store: SessionStore, uid: number, currentSid: string) {
  return { ended: await endAllSessions(store, uid, currentSid) };
}
