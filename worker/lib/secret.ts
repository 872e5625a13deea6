// Random secrets and their hashes (oslo): what is kept is always the SHA-256 of a secret, never the
// secret itself (sign-in sessions in KV, emailed single-use links in D1).
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";

/** A 256-bit random secret, base64url without padding (43 characters). */
export function randomToken(bytes = 32): string {
  return encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** SHA-256 of a secret, base64url without padding (43 characters). */
export function hashSecret(secret: string): string {
  return encodeBase64urlNoPadding(sha256(new TextEncoder().encode(secret)));
}
