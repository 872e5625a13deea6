// The queue() handler: NoteX's own "tell the fediverse" messages become activities (outbox.ts) and
// Fedify's messages (one delivery to one inbox, a fan-out, an inbound activity to process) go to
// processQueuedTask. A refusal by this server's own rules (an AppError below 500: a block, a gone
// post) is acknowledged, never retried. A failure is retried with exponential backoff; after MAX_ATTEMPTS tries the
// message goes to the dead-letter queue (FED_DLQ, notex-federation-dlq) and a log line says so.
// Fedify's circuit breaker holds deliveries to a server that keeps failing (federation.ts logs
// it). Deliveries to a server the moderators blocked are dropped here. Fedify's messages travel
// without their private keys (queue.ts): they are read again from D1 for each batch.
import { AppError } from "../../lib/errors";
import { exportJwk, type Federation } from "@fedify/fedify";
import type { Env } from "../../env";
import { type FedData, isOutMessage } from "./context";
import { blockedHosts, blockedIn } from "./domains";
import { federationFor } from "./federation";
import { sendOut } from "./outbox";

/** Tries before the dead-letter queue: wrangler.toml's max_retries (its DLQ is the backstop for a crashed batch). */
export const MAX_ATTEMPTS = 8;

/** Seconds before retry n (1, 2, …): 30 s doubling, at most an hour. */
export const backoff = (attempts: number) => Math.min(30 * 2 ** Math.max(attempts - 1, 0), 3600);

interface FedifyMessage {
  type?: string;
  baseUrl?: string;
  inbox?: string;
  keys?: { keyId: string; privateKey?: JsonWebKey }[];
}

const log = (line: Record<string, unknown>) => console.error(JSON.stringify(line));

/** The host a Fedify delivery goes to (an outbox message names one inbox), else null. */
function deliveryHost(body: FedifyMessage): string | null {
  if (body.type !== "outbox" || typeof body.inbox !== "string") return null;
  try {
    return new URL(body.inbox).host.toLowerCase();
  } catch {
    return null;
  }
}

/**
 * The message with its sender's private keys put back, read from D1 by key id (each key once per
 * batch); null when a key is gone (the account was deleted since: nothing can sign for it).
 */
async function withKeys(
  federation: Federation<FedData>,
  env: Env,
  body: FedifyMessage,
  cache: Map<string, Promise<JsonWebKey | null>>,
): Promise<FedifyMessage | null> {
  if (!Array.isArray(body.keys) || !body.baseUrl) return body;
  const ctx = federation.createContext(new URL(body.baseUrl), { env });
  const keys = [];
  for (const { keyId } of body.keys) {
    let jwk = cache.get(keyId);
    if (!jwk) {
      jwk = (async () => {
        const parsed = ctx.parseUri(new URL(keyId.split("#")[0]));
        if (parsed?.type !== "actor") return null;
        const pair = (await ctx.getActorKeyPairs(parsed.identifier)).find((k) => k.keyId.href === keyId);
        return pair ? exportJwk(pair.privateKey) : null;
      })();
      cache.set(keyId, jwk);
    }
    const privateKey = await jwk;
    if (!privateKey) return null;
    keys.push({ keyId, privateKey });
  }
  return { ...body, keys };
}

export async function consume(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const federation = await federationFor(env);
  const keys = new Map<string, Promise<JsonWebKey | null>>();
  let blocked: Set<string> | null = null;
  for (const message of batch.messages) {
    try {
      const body = message.body as FedifyMessage;
      if (isOutMessage(body)) await sendOut(federation, env, body);
      else {
        const host = deliveryHost(body);
        blocked ??= host ? await blockedHosts(env.DB) : null;
        const stopped = !!host && !!blocked && blockedIn(blocked, host);
        const task = stopped ? null : await withKeys(federation, env, body, keys);
        if (task) await federation.processQueuedTask({ env }, task as never);
        else log({ t: "federation.drop", host, reason: stopped ? "domain blocked" : "sender gone" });
      }
      message.ack();
    } catch (error) {
      if (error instanceof AppError && error.status < 500) {
        // Refused by this server's own rules (a block, a gone post): trying again refuses again.
        log({ t: "federation.refused", error: String(error) });
        message.ack();
      } else if (message.attempts >= MAX_ATTEMPTS) {
        // Given up: kept in the dead-letter queue as it arrived (ids and URLs, no keys).
        log({ t: "federation.dead", attempts: message.attempts, error: String(error) });
        await env.FED_DLQ?.send(message.body, { contentType: "json" });
        message.ack();
      } else {
        log({ t: "federation.queue", attempts: message.attempts, error: String(error) });
        message.retry({ delaySeconds: backoff(message.attempts) });
      }
    }
  }
}
