// PBKDF2-SHA256 through WebCrypto at 100k iterations, the most the Workers runtime allows.
// Encoded as "pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>" so a stronger scheme can replace it
// on the next successful login (see needsRehash).
const SCHEME = "pbkdf2-sha256";
const ITERATIONS = 100_000;
const enc = new TextEncoder();

const b64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const unb64 = (s: string) => Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0));

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<ArrayBuffer> {
  const key = await crypto.subtle.importKey("raw", enc.encode(password), "PBKDF2", false, ["deriveBits"]);
  return crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `${SCHEME}$${ITERATIONS}$${b64(salt)}$${b64(await derive(password, salt, ITERATIONS))}`;
}

export async function verifyPassword(password: string, encoded: string | null): Promise<boolean> {
  const [scheme, iter, salt, hash] = (encoded ?? "").split("$");
  const iterations = Number(iter);
  if (scheme !== SCHEME || !salt || !hash || !(iterations > 0 && iterations <= ITERATIONS)) {
    // Still spend the time of a real check so a missing account is not told apart by timing.
    await derive(password, new Uint8Array(16), ITERATIONS);
    return false;
  }
  const actual = new Uint8Array(await derive(password, unb64(salt), iterations));
  return timingSafeEqual(actual, unb64(hash));
}

export function needsRehash(encoded: string): boolean {
  const [scheme, iter] = encoded.split("$");
  return scheme !== SCHEME || Number(iter) < ITERATIONS;
}

export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}
