// Every GET NoteX makes to another server is signed, by the instance actor (/ap/users/instance)
// as Mastodon signs with its own, or by the account a fetch is made for: servers in "secure mode"
// (GoToSocial always, Mastodon and Akkoma with authorized fetch) answer nothing unsigned, so their
// people could be neither found nor followed. A signer is the outbound gate's per-hop sender
// (lib/outbound.ts): each hop, redirects included, is checked and then signed for its own URL.
import { signRequest } from "@fedify/fedify";
import type { Env } from "../../env";
import { INSTANCE } from "./context";
import { instanceKeyPairs } from "./keys";

export interface Identity {
  keyId: URL;
  privateKey: CryptoKey;
}

/** The instance actor's RSA key and its id (Fedify names an actor's first key #main-key). */
export async function instanceIdentity(env: Env, origin: string): Promise<Identity | null> {
  const [rsa] = await instanceKeyPairs(env, env.DB);
  return rsa ? { keyId: new URL(`/ap/users/${INSTANCE}#main-key`, origin), privateKey: rsa.privateKey } : null;
}

/** Sends each hop signed (draft-cavage) by `identity`, read at the first hop; unsigned without one. */
export function signingSender(identity: () => Promise<Identity | null>): (hop: Request) => Promise<Response> {
  let known: Promise<Identity | null> | undefined;
  return async (hop) => {
    known ??= identity();
    const id = await known;
    return fetch(id ? await signRequest(hop, id.privateKey, id.keyId) : hop);
  };
}

/** Signs as the instance actor of `origin` (the key is read once, at the first fetch). */
export const instanceSender = (env: Env, origin: string) => signingSender(() => instanceIdentity(env, origin));
