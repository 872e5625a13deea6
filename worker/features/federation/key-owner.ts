// Whose key is it? A key document names its owner (`owner`, or a Multikey's `controller`), and
// Fedify 2.3.6 takes that claim as proof (docs/fedify-key-owner.md): anyone could publish a key
// "owned" by someone else's actor. Here a key counts for an actor only when the actor's own
// document, fetched from the actor's own origin, lists it, as Mastodon checks; and no actor of
// another server can live on this instance's origin.
import { type Actor, isActor, Object as APObject } from "@fedify/vocab";
import type { DocumentLoader } from "@fedify/vocab-runtime";

export interface Loaders {
  documentLoader: DocumentLoader;
  contextLoader: DocumentLoader;
}

/** `publicKey` for HTTP and Linked Data signatures, `assertionMethod` for Object Integrity Proofs. */
export type KeyUse = "publicKey" | "assertionMethod";

/**
 * Whether `owner`'s actor document lists `keyId` for `use`: the actor when it does, else null. The
 * document must come from the owner's origin (after any redirect) and carry the owner's id;
 * `ownOrigin` is never a remote actor's.
 */
export async function actorListsKey(
  loaders: Loaders,
  ownOrigin: string,
  owner: URL,
  keyId: URL,
  use: KeyUse,
): Promise<Actor | null> {
  if (owner.origin === ownOrigin) return null;
  const fetched = await loaders.documentLoader(owner.href).catch(() => null);
  if (!fetched || new URL(fetched.documentUrl).origin !== owner.origin) return null;
  const actor = await APObject.fromJsonLd(fetched.document, loaders).catch(() => null);
  if (!actor || !isActor(actor) || actor.id?.href !== owner.href) return null;
  const listed = use === "publicKey" ? actor.publicKeyIds : actor.assertionMethodIds;
  return listed.some((id) => id.href === keyId.href) ? actor : null;
}
