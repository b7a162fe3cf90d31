/**
 * Publishing a message that must outlive a Redis outage (webhook events): its consumer records it durably
 * first (a transactional outbox: rows in the database that a relay sends from), and the bus copy is only a
 * wake-up that the consumer dedupes by a unique key.
 */
import type { EventBus } from './event-bus.js';

/** Where a message is recorded before the bus hears of it; resolves once it is durable. */
export interface MessageOutbox {
  record(message: unknown): Promise<void>;
}

/**
 * Records `message` in the outbox and publishes it. Resolves once it is recorded, whatever the bus does (a
 * publish during a Redis outage would hold the caller for the reconnect window and then fail). If recording
 * fails (this instance's database connection), the bus copy is the message's only way left, to instances that
 * may record it: then this waits for the publish and fails only if that fails too.
 */
export async function recordThenPublish(bus: EventBus, outbox: MessageOutbox, channel: string, message: unknown): Promise<void> {
  const published = bus.publish(channel, message);
  // Awaited below only when the record failed; otherwise its failure loses nothing.
  published.catch(() => undefined);
  try {
    await outbox.record(message);
  } catch (error) {
    await published.catch(() => {
      throw error;
    });
  }
}
