// The queue() handler: NoteX's own "tell the fediverse" messages become activities (outbox.ts) and
// Fedify's messages (one delivery to one inbox, an inbound activity to process) go to
// processQueuedTask. A failure is retried with exponential backoff; after wrangler.toml's
// max_retries Cloudflare moves the message to the dead-letter queue. Fedify's circuit breaker holds
// deliveries to a server that keeps failing (and logs it) instead of hammering it.
import type { Env } from "../../env";
import { isOutMessage } from "./context";
import { federationFor } from "./federation";
import { sendOut } from "./outbox";

/** Seconds before retry n (1, 2, …): 30 s doubling, at most an hour. */
export const backoff = (attempts: number) => Math.min(30 * 2 ** Math.max(attempts - 1, 0), 3600);

export async function consume(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const federation = await federationFor(env);
  for (const message of batch.messages) {
    try {
      if (isOutMessage(message.body)) await sendOut(federation, env, message.body);
      else await federation.processQueuedTask({ env }, message.body as never);
      message.ack();
    } catch (error) {
      console.error(JSON.stringify({ t: "federation.queue", attempts: message.attempts, error: String(error) }));
      message.retry({ delaySeconds: backoff(message.attempts) });
    }
  }
}
