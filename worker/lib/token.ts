// The API's bearer token (spec: `Authorization: Bearer …`, 15 minutes, renewed by GET /v1/refresh):
// an HS256 JWT (oslo) naming a sign-in session, `{ sub: account id, sid: session id }`. The
// signature only spares KV a read for garbage: every request still finds the session in KV, so a
// token stops working as soon as its session is ended.
import { hmac } from "@oslojs/crypto/hmac";
import { SHA256 } from "@oslojs/crypto/sha2";
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { createJWTSignatureMessage, encodeJWT, JWSRegisteredHeaders, JWTRegisteredClaims, parseJWT } from "@oslojs/jwt";

export const TOKEN_TTL_S = 15 * 60;

const HEADER = JSON.stringify({ alg: "HS256", typ: "JWT" });
const bytes = (s: string) => new TextEncoder().encode(s);

/** A token for session `sid` of account `uid`, valid TOKEN_TTL_S from now. */
export function signToken(secret: string, uid: number, sid: string): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = JSON.stringify({ sub: uid, sid, iat: now, exp: now + TOKEN_TTL_S });
  return encodeJWT(HEADER, payload, hmac(SHA256, bytes(secret), createJWTSignatureMessage(HEADER, payload)));
}

/** What a checked token names, with its expiry (seconds since the epoch). */
interface Named {
  uid: number;
  sid: string;
  exp: number;
}

// A client sends the same token with every request for up to 15 minutes, and checking one (oslo's
// JavaScript SHA-256 and base64) costs about 0.3 ms: what a good token names is kept per isolate,
// and a repeat only has its expiry looked at again. Revocation is unchanged: the session is still
// read from KV on every request. The oldest entry makes room when the map is full.
const CHECKED_MAX = 1000;
const checked = new Map<string, Named>();

/** The account and session a token names, if its header says HS256, its signature holds and it is within exp (and nbf). */
export function verifyToken(secret: string, token: string): { uid: number; sid: string } | null {
  const key = `${secret} ${token}`;
  const named = checked.get(key) ?? check(secret, token);
  if (!named || Date.now() / 1000 >= named.exp) return null;
  if (!checked.has(key)) {
    if (checked.size >= CHECKED_MAX) checked.delete(checked.keys().next().value as string);
    checked.set(key, named);
  }
  return { uid: named.uid, sid: named.sid };
}

/** The token checked in full (verifyToken's first sight of it). */
function check(secret: string, token: string): Named | null {
  let parsed: ReturnType<typeof parseJWT>;
  try {
    parsed = parseJWT(token);
  } catch {
    return null;
  }
  const [header, payload, signature, message] = parsed;
  try {
    const h = new JWSRegisteredHeaders(header);
    if (!h.hasAlgorithm() || h.algorithm() !== "HS256") return null;
    if (!constantTimeEqual(signature, hmac(SHA256, bytes(secret), message))) return null;
    const claims = new JWTRegisteredClaims(payload);
    if (!claims.hasExpiration() || !claims.verifyExpiration()) return null;
    if (claims.hasNotBefore() && !claims.verifyNotBefore()) return null;
  } catch {
    // A claim of the wrong type (exp as a string, say) throws: such a token is simply not valid.
    return null;
  }
  const { sub, sid, exp } = payload as { sub?: unknown; sid?: unknown; exp: number };
  return Number.isSafeInteger(sub) && (sub as number) > 0 && typeof sid === "string"
    ? { uid: sub as number, sid, exp }
    : null;
}
