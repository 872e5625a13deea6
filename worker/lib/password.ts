// PBKDF2-SHA256 through WebCrypto at 100k iterations, the most the Workers runtime allows.
// Encoded as "pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>" so a stronger scheme can replace it
// on the next successful login (see needsRehash).
import { constantTimeEqual } from "@oslojs/crypto/subtle";
import { decodeBase64, encodeBase64 } from "@oslojs/encoding";

const SCHEME = "pbkdf2-sha256";
const ITERATIONS = 100_000;
const enc = new TextEncoder();

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<ArrayBuffer> {
  const key = await crypto.subtle.importKey("raw", enc.encode(password), "PBKDF2", false, ["deriveBits"]);
  return crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = new Uint8Array(await derive(password, salt, ITERATIONS));
  return `${SCHEME}$${ITERATIONS}$${encodeBase64(salt)}$${encodeBase64(hash)}`;
}

export async function verifyPassword(password: string, encoded: string | null): Promise<boolean> {
  const [scheme, iter, salt, hash] = (encoded ?? "").split("$");
  const iterations = Number(iter);
  if (scheme !== SCHEME || !salt || !hash || !(iterations > 0 && iterations <= ITERATIONS)) {
    // Still spend the time of a real check so a missing account is not told apart by timing.
    await derive(password, new Uint8Array(16), ITERATIONS);
    return false;
  }
  let saltBytes: Uint8Array<ArrayBuffer>;
  let expected: Uint8Array;
  try {
    saltBytes = new Uint8Array(decodeBase64(salt));
    expected = decodeBase64(hash);
  } catch {
    // A stored value that is not base64 matches nothing (and costs a real check's time too).
    await derive(password, new Uint8Array(16), ITERATIONS);
    return false;
  }
  return constantTimeEqual(new Uint8Array(await derive(password, saltBytes, iterations)), expected);
}

export function needsRehash(encoded: string): boolean {
  const [scheme, iter] = encoded.split("$");
  return scheme !== SCHEME || Number(iter) < ITERATIONS;
}

/** Whether two byte strings are equal, in time that does not depend on where they differ. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && constantTimeEqual(a, b);
}
