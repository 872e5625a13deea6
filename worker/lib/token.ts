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

/** The account and session a token names, if its header says HS256, its signature holds and it is within exp (and nbf). */
export function verifyToken(secret: string, token: string): { uid: number; sid: string } | null {
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
  const { sub, sid } = payload as { sub?: unknown; sid?: unknown };
  return Number.isSafeInteger(sub) && (sub as number) > 0 && typeof sid === "string"
    ? { uid: sub as number, sid }
    : null;
}
