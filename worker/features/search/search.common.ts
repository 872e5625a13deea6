import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import { sql } from "drizzle-orm";
import { AppError } from "../../lib/errors";

// What the ranked search (search.service.ts) and people search (search.people.ts) share: named
// parameters and the cursor encoding.

export const P = (name: string) => sql.placeholder(name);

// Cursors carry JSON (user keys are any text), base64url of its UTF-8.
export function encodeToken(value: unknown): string {
  return encodeBase64urlNoPadding(new TextEncoder().encode(JSON.stringify(value)));
}

export function decodeToken(s: string): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(decodeBase64urlIgnorePadding(s)));
  } catch {
    throw badCursor();
  }
}

export const badCursor = () => new AppError(400, "bad_cursor", "The page cursor is not valid.");
export const isInt = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/** The viewer as a bound parameter, or null for a visitor (plans are made per case). */
export const viewerOf = (viewer: boolean) => (viewer ? P("viewer") : null);
