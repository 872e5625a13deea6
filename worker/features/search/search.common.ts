import { sql } from "drizzle-orm";
import { planOf } from "../../db/plan";
import type { DB } from "../../env";
import { AppError } from "../../lib/errors";
import { type RideAlong, sessionColumn } from "../../lib/session";

// What the ranked search (search.service.ts) and people search (search.people.ts) share: named
// parameters, the cursor encoding, and the bearer read's session check.

export const P = (name: string) => sql.placeholder(name);

// Cursors carry JSON (user keys are any text), base64url of its UTF-8.
export function encodeToken(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export function decodeToken(s: string): unknown {
  try {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
  } catch {
    throw badCursor();
  }
}

export const badCursor = () => new AppError(400, "bad_cursor", "The page cursor is not valid.");
export const isInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** The session check alone, for a batch whose statements may all come back empty. */
export function sessionPlan(db: DB) {
  return planOf("search:session", () =>
    db.select({ session: sessionColumn(P("ride_uid"), P("ride_sid")) }).from(sql`(select 1)`),
  );
}
export const rideValues = (ride?: RideAlong) => ({ ride_uid: ride?.uid, ride_sid: ride?.sid });

/** The viewer as a bound parameter, or null for a visitor (plans are made per case). */
export const viewerOf = (viewer: boolean) => (viewer ? P("viewer") : null);
