// Each local account's signing keys: made once, at first need (the first time its actor is read or
// it sends an activity), stored in actor_keys with the private halves sealed by AES-GCM under a key
// derived from FEDERATION_SECRET. RSA is 2048-bit, as Mastodon's: a 4096-bit key costs seconds of
// CPU to make (Fedify's generateCryptoKeyPair default, and wildebeest's Error 1102).
import type { Env } from "../../env";
import { localSql } from "../users/locality";
import { farewellOf } from "./farewell";

const RSA: RsaHashedKeyGenParams = {
  name: "RSASSA-PKCS1-v1_5",
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: "SHA-256",
};
const RSA_IMPORT = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" };
const ED = { name: "Ed25519" };

/** The local stand-in when no secret is configured (APP_ENV=local only: production refuses to start without one). */
export const LOCAL_FEDERATION_SECRET = "local-dev-federation-secret-change-me-0123456789";

const toB64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromB64 = (s: string) => Uint8Array.from(atob(s), (ch) => ch.charCodeAt(0));

const sealKeys = new Map<string, Promise<CryptoKey>>();
function sealKey(env: Env): Promise<CryptoKey> {
  const secret = env.FEDERATION_SECRET || LOCAL_FEDERATION_SECRET;
  let key = sealKeys.get(secret);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(), info: new TextEncoder().encode("notex actor keys") },
          base,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    sealKeys.set(secret, key);
  }
  return key;
}

async function seal(env: Env, key: CryptoKey): Promise<string> {
  const jwk = new TextEncoder().encode(JSON.stringify(await crypto.subtle.exportKey("jwk", key)));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const box = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await sealKey(env), jwk));
  return `v1.${toB64(iv)}.${toB64(box)}`;
}

async function unseal(env: Env, sealed: string, alg: AlgorithmIdentifier | RsaHashedImportParams): Promise<CryptoKey> {
  const [, iv, box] = sealed.split(".");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: fromB64(iv) }, await sealKey(env), fromB64(box));
  return crypto.subtle.importKey("jwk", JSON.parse(new TextDecoder().decode(plain)), alg, true, ["sign"]);
}

const publicJwk = async (key: CryptoKey) => JSON.stringify(await crypto.subtle.exportKey("jwk", key));
const importPublic = (jwk: string, alg: AlgorithmIdentifier | RsaHashedImportParams) =>
  crypto.subtle.importKey("jwk", JSON.parse(jwk), alg, true, ["verify"]);

interface KeyRow {
  rsa_public: string;
  rsa_private: string;
  ed_public: string;
  ed_private: string;
}

/** A fresh [RSA, Ed25519] pair as a row to store: public halves as JWK, private halves sealed. */
async function freshRow(env: Env): Promise<KeyRow> {
  const rsa = (await crypto.subtle.generateKey(RSA, true, ["sign", "verify"])) as CryptoKeyPair;
  const ed = (await crypto.subtle.generateKey(ED, true, ["sign", "verify"])) as CryptoKeyPair;
  return {
    rsa_public: await publicJwk(rsa.publicKey),
    rsa_private: await seal(env, rsa.privateKey),
    ed_public: await publicJwk(ed.publicKey),
    ed_private: await seal(env, ed.privateKey),
  };
}

async function pairsOf(env: Env, row: KeyRow): Promise<CryptoKeyPair[]> {
  return [
    {
      publicKey: await importPublic(row.rsa_public, RSA_IMPORT),
      privateKey: await unseal(env, row.rsa_private, RSA_IMPORT),
    },
    { publicKey: await importPublic(row.ed_public, ED), privateKey: await unseal(env, row.ed_private, ED) },
  ];
}

/**
 * The account's [RSA, Ed25519] key pairs, made and stored the first time they are asked for; for
 * a deleted account, the ones kept for its farewell (farewell.ts), while they are kept. A person
 * stored from another server has none here (their server signs for them): none is made or used.
 */
export async function keyPairsOf(env: Env, db: D1Database, userId: number): Promise<CryptoKeyPair[]> {
  // The account (only a local one) and its keys in one read: no row when there is no such account here.
  const read = () =>
    db
      .prepare(
        `select u.id, k.rsa_public, k.rsa_private, k.ed_public, k.ed_private from users u
         left join actor_keys k on k.user_id = u.id where u.id = ? and ${localSql("u.id")}`,
      )
      .bind(userId)
      .first<{ id: number } & Partial<KeyRow>>();
  let row = await read();
  if (!row) {
    const kept = await farewellOf(db, userId);
    return kept ? pairsOf(env, kept.keys) : [];
  }
  if (!row.rsa_public) {
    const made = await freshRow(env);
    // Two first readers race: the insert keeps the first pair and both use it (read again).
    await db
      .prepare(
        `insert into actor_keys (user_id, rsa_public, rsa_private, ed_public, ed_private) select ?1, ?2, ?3, ?4, ?5
         where exists (select 1 from users where id = ?1 and ${localSql("users.id")}) on conflict do nothing`,
      )
      .bind(userId, made.rsa_public, made.rsa_private, made.ed_public, made.ed_private)
      .run();
    row = await read();
    if (!row?.rsa_public) return [];
  }
  return pairsOf(env, row as KeyRow);
}

/**
 * The instance actor's key pairs (it is no account, so no actor_keys row): kept sealed the same
 * way in fed_kv, with no TTL (the cleanup cron only removes rows that have one).
 */
export async function instanceKeyPairs(env: Env, db: D1Database): Promise<CryptoKeyPair[]> {
  const key = JSON.stringify(["notex", "instance-keys"]);
  const read = async () => {
    const found = await db.prepare("select value from fed_kv where key = ?").bind(key).first<{ value: string }>();
    return found ? (JSON.parse(found.value) as KeyRow) : null;
  };
  let row = await read();
  if (!row) {
    const made = await freshRow(env);
    await db
      .prepare("insert into fed_kv (key, value, expires_at) values (?, ?, null) on conflict do nothing")
      .bind(key, JSON.stringify(made))
      .run();
    row = await read();
    if (!row) return [];
  }
  return pairsOf(env, row);
}
