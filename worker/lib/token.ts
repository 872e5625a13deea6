// The API's bearer token (spec: `Authorization: Bearer …`, 15 minutes, renewed by GET /v1/refresh):
// an HS256 JWT naming a sign-in session, `{ sub: account id, sid: session id }`. The signature only
// spares KV a read for garbage: every request still finds the session in KV, so a token stops
// working as soon as its session is ended.
// Every API request checks one, so the HMAC is the platform's (Web Crypto, with the key imported
// once per isolate) and the token is read in one pass: oslo encodes and decodes base64url.
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";

export const TOKEN_TTL_S = 15 * 60;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const base64url = (s: string) => encodeBase64urlNoPadding(encoder.encode(s));
const HEADER = base64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));

// The secret is the same for every request of an isolate: its key is imported once.
const keys = new Map<string, Promise<CryptoKey>>();
function keyOf(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
      "sign",
      "verify",
    ]);
    keys.set(secret, key);
  }
  return key;
}

/** A token for session `sid` of account `uid`, valid TOKEN_TTL_S from now. */
export async function signToken(secret: string, uid: number, sid: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const signed = `${HEADER}.${base64url(JSON.stringify({ sub: uid, sid, iat: now, exp: now + TOKEN_TTL_S }))}`;
  const mac = await crypto.subtle.sign("HMAC", await keyOf(secret), encoder.encode(signed));
  return `${signed}.${encodeBase64urlNoPadding(new Uint8Array(mac))}`;
}

/** A base64url part of a token as JSON, or undefined when it is not. */
function partJson(part: string): unknown {
  try {
    return JSON.parse(decoder.decode(decodeBase64urlIgnorePadding(part)));
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** The account and session a token names, if its header says HS256, its signature holds and it is within exp (and nbf). */
export async function verifyToken(secret: string, token: string): Promise<{ uid: number; sid: string } | null> {
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [header, payload, signature] = parts;
  const h = partJson(header);
  if (!isObject(h) || h.alg !== "HS256") return null;
  let mac: Uint8Array<ArrayBuffer>;
  try {
    // oslo decodes into a new Uint8Array over a plain ArrayBuffer (its type says only ArrayBufferLike).
    mac = decodeBase64urlIgnorePadding(signature) as Uint8Array<ArrayBuffer>;
  } catch {
    return null;
  }
  // Web Crypto's verify compares in constant time.
  if (!(await crypto.subtle.verify("HMAC", await keyOf(secret), mac, encoder.encode(`${header}.${payload}`)))) {
    return null;
  }
  const claims = partJson(payload);
  if (!isObject(claims)) return null;
  const { sub, sid, exp, nbf } = claims;
  const now = Date.now() / 1000;
  if (typeof exp !== "number" || now >= exp) return null;
  if (nbf !== undefined && (typeof nbf !== "number" || now < nbf)) return null;
  return Number.isSafeInteger(sub) && (sub as number) > 0 && typeof sid === "string"
    ? { uid: sub as number, sid }
    : null;
}
