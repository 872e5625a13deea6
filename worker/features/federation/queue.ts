// Fedify's MessageQueue over a Cloudflare Queue binding. Cloudflare retries and dead-letters by
// itself (wrangler.toml's consumer: max_retries, dead_letter_queue), so nativeRetrial is on: Fedify
// rethrows a failed delivery and the consumer (consumer.ts) asks for a retry with backoff.
// Fedify's outbox and fan-out messages carry the sender's private keys as JWKs: here only the key
// ids are kept (no secret ever rides in a queue message, wildebeest's mistake), and the consumer
// reads the keys again from D1 before it hands the message back to Fedify.
import type { MessageQueue, MessageQueueEnqueueOptions } from "@fedify/fedify";

/** Queues take at most 100 messages and 256 KB per sendBatch (Fedify 2.3.3's own fix). */
const BATCH_MESSAGES = 100;
const BATCH_BYTES = 200_000;

export class QueueMessageQueue implements MessageQueue {
  readonly nativeRetrial = true;

  constructor(private readonly queue: Queue<unknown>) {}

  // Awaited by Fedify: a send that is not awaited is lost when the isolate ends (Fedify 2.1.4).
  async enqueue(message: unknown, options?: MessageQueueEnqueueOptions): Promise<void> {
    await this.queue.send(withoutKeys(message), { contentType: "json", delaySeconds: delayOf(options) });
  }

  async enqueueMany(messages: readonly unknown[], options?: MessageQueueEnqueueOptions): Promise<void> {
    let batch: MessageSendRequest<unknown>[] = [];
    let bytes = 0;
    for (const message of messages) {
      const body = withoutKeys(message);
      const size = JSON.stringify(body).length;
      if (batch.length && (batch.length === BATCH_MESSAGES || bytes + size > BATCH_BYTES)) {
        await this.queue.sendBatch(batch, { delaySeconds: delayOf(options) });
        batch = [];
        bytes = 0;
      }
      batch.push({ body, contentType: "json" });
      bytes += size;
    }
    if (batch.length) await this.queue.sendBatch(batch, { delaySeconds: delayOf(options) });
  }

  listen(): Promise<void> {
    // Workers have no long-running listener: the queue() handler calls processQueuedTask().
    throw new TypeError("QueueMessageQueue is consumed by the worker's queue() handler");
  }
}

/** A Fedify message with only the ids of its `keys` (the private halves stay in D1). */
export function withoutKeys(message: unknown): unknown {
  if (typeof message !== "object" || message === null || !("keys" in message) || !Array.isArray(message.keys))
    return message;
  return { ...message, keys: message.keys.map((k: { keyId: string }) => ({ keyId: k.keyId })) };
}

/** Queues delay at most 12 hours. */
const delayOf = (options?: MessageQueueEnqueueOptions) =>
  Math.min(Math.max(Math.round(options?.delay?.total("seconds") ?? 0), 0), 43_200);
