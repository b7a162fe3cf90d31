/**
 * Publishing a message that must outlive a crash or a Redis outage (webhook events): its consumer records it
 * durably (a transactional outbox: rows in the database that a relay sends from), and the bus copy is only a
 * wake-up that the consumer dedupes by a unique key.
 *
 * An event raised by a database change is recorded in that change's transaction (`recordIn`): the change and
 * its event commit together, and what runs after the commit (`AfterCommit`: the bus publish, the delivery
 * jobs) only wakes the delivery up; a crash before it delays the event until a relay's sweep or the next
 * start, never loses it. An event that comes from no transaction (the playout's now-playing) is recorded on
 * its own and published (`recordThenPublish`).
 */
import type { DbOrTx } from '../db/client.js';
import type { EventBus } from './event-bus.js';

/**
 * What a publisher runs once its transaction has committed. The outbox's never rejects (a failure is the relay's
 * to make good); without an outbox (unit setups) it is the bus publish, the event's only way, and may.
 */
export type AfterCommit = () => Promise<void>;

/** Where a message is recorded before the bus hears of it. */
export interface MessageOutbox {
  /** Records `message` on its own; resolves once it is durable. */
  record(message: unknown): Promise<void>;
  /**
   * Records `message` in the caller's transaction `tx` (rolled back with it); answers the after-commit wake-up
   * of what it recorded.
   */
  recordIn(tx: DbOrTx, message: unknown): Promise<AfterCommit>;
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

/**
 * Records `message` in `tx` and answers the step to run after the commit: the bus publish (every instance's
 * subscribers; the webhooks' copy dedupes against the rows) and the outbox's own wake-up, neither awaited for
 * long nor able to fail the caller, since the event is durable with the change.
 */
export async function recordInTransaction(bus: EventBus, outbox: MessageOutbox, tx: DbOrTx, channel: string, message: unknown): Promise<AfterCommit> {
  const wake = await outbox.recordIn(tx, message);
  return async () => {
    // Not awaited: during a Redis outage a publish waits through the reconnect window. Its failure loses
    // nothing the webhooks need; the bus's other listeners (WebSocket cards, the live feed's wake-up) are
    // best effort, as for any publish.
    bus.publish(channel, message).catch(() => undefined);
    await wake().catch(() => undefined);
  };
}
