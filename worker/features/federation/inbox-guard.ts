// What a delivery must prove before Fedify's inbox sees it (loaded on demand by
// federation.routes.ts for POSTs). In this order, each step cheap before the next:
//  1. an HTTP signature (draft-cavage, or RFC 9421 covering content-digest) whose digest matches the
//     body and whose Date is within the window: checked on headers and bytes alone;
//  2. the signing key listed by its owner's own actor document (key-owner.ts);
//  3. only then the body: plain JSON, nesting capped, read as an activity with preloaded contexts;
//  4. every actor it names proven: the HTTP signer, or a Linked Data Signature or Object Integrity
//     Proof whose key its actor's document lists (a forwarded activity).
// Fedify then verifies again by its own rules, which are looser, so both hold.
import { verifyProof, verifyRequestDetailed, verifySignature } from "@fedify/fedify";
import { Activity } from "@fedify/vocab";
import type { Env } from "../../env";
import { federationFor, SIGNATURE_WINDOW } from "./federation";
import { goneKeyOwner, isSelfDelete } from "./gone-actor";
import { actorListsKey, type Loaders } from "./key-owner";
import { handleOf } from "./remote";

/** Deeper than any real activity (a Create of a Note with tags and attachments is about 6). */
export const MAX_DEPTH = 32;

/**
 * Who signed (the verified key owner's host); or, for a Delete of an actor whose document already
 * answers 410 or 404 (nothing can verify it: the key went with the actor), that actor, passed on
 * to the inbox's onUnverifiedActivity (inbox.ts), which takes it only as that actor's own end.
 */
export type Verdict = { signer: string } | { gone: string } | { status: 400 | 401; message: string };

const refuse = (status: 400 | 401, message: string): Verdict => ({ status, message });

/** Whether any object or array lies deeper than `max` (walked without recursion). */
function tooDeep(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [v, depth] = item;
    if (typeof v !== "object" || v === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

/** The body as a JSON object, or a reason it is not one. */
function parseBody(bytes: Uint8Array): Record<string, unknown> | string {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return "The body is not JSON";
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) return "The body is not a JSON object";
  return tooDeep(json, MAX_DEPTH)
    ? `The body is nested deeper than ${MAX_DEPTH} levels`
    : (json as Record<string, unknown>);
}

/** Actors proven by the body's own proofs (Linked Data Signature, Object Integrity Proofs), bound like any key. */
async function provenInBody(
  loaders: Loaders,
  own: string,
  json: Record<string, unknown>,
  activity: Activity,
): Promise<string[]> {
  const proven: string[] = [];
  const ld = "signature" in json ? await verifySignature(json, loaders).catch(() => null) : null;
  if (ld?.id && ld.ownerId && (await actorListsKey(loaders, own, ld.ownerId, ld.id, "publicKey")))
    proven.push(ld.ownerId.href);
  const { signature: _ld, ...unsigned } = json;
  for await (const proof of activity.getProofs({ ...loaders, suppressError: true })) {
    const key = await verifyProof(unsigned, proof, loaders).catch(() => null);
    if (key?.id && key.controllerId && (await actorListsKey(loaders, own, key.controllerId, key.id, "assertionMethod")))
      proven.push(key.controllerId.href);
  }
  return proven;
}

/** Whether `request` (its body already read into `body`, within the size cap) may reach the inbox, and who signed it. */
export async function checkDelivery(env: Env, request: Request, body: Uint8Array): Promise<Verdict> {
  const input = request.headers.get("signature-input");
  if (!request.headers.has("signature") && !input) return refuse(401, "A delivery must carry an HTTP signature");
  // RFC 9421 binds the body only when the signature covers its digest (draft-cavage always does here).
  if (input && !input.toLowerCase().includes('"content-digest"'))
    return refuse(401, "The signature must cover the body's Content-Digest");
  const federation = await federationFor(env);
  const ctx = federation.createContext(new URL(request.url), { env });
  const loaders: Loaders = { documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader };
  const own = new URL(ctx.canonicalOrigin).origin;
  const verified = await verifyRequestDetailed(request, { ...loaders, timeWindow: SIGNATURE_WINDOW });
  if (!verified.verified) {
    const gone = goneKeyOwner(verified.reason);
    const json = gone ? parseBody(body) : null;
    const activity =
      json && typeof json !== "string" ? await Activity.fromJsonLd(json, loaders).catch(() => null) : null;
    return gone && isSelfDelete(activity, gone) ? { gone } : refuse(401, "The signature could not be verified");
  }
  const key = verified.key;
  const signer = key.id && key.ownerId ? await actorListsKey(loaders, own, key.ownerId, key.id, "publicKey") : null;
  if (!signer || !key.ownerId) return refuse(401, "The signing key is not listed by its owner's actor document");
  // A username outside the remote grammar (handles.ts) is never stored: its deliveries are refused.
  if (!handleOf(signer)) return refuse(400, "The actor's username is not a valid handle");
  const json = parseBody(body);
  if (typeof json === "string") return refuse(400, json);
  const activity = await Activity.fromJsonLd(json, loaders).catch(() => null);
  if (!activity) return refuse(400, "The body is not an activity");
  const named = [...activity.actorIds, ...activity.attributionIds].map((u) => u.href);
  if (!named.length) return refuse(400, "The activity names no actor");
  const proven = new Set([key.ownerId.href]);
  if (named.some((a) => !proven.has(a)))
    for (const a of await provenInBody(loaders, own, json, activity)) proven.add(a);
  if (named.some((a) => !proven.has(a))) return refuse(401, "The signature does not prove the activity's actor");
  return { signer: key.ownerId.host.toLowerCase() };
}
