/**
 * Whether a login session is still valid, cached for a few seconds so that verifying a JWT does not cost
 * a database query on every request. A revocation publishes on the event bus, so every instance drops
 * its cached entry at once; the TTL bounds staleness if a message is lost.
 */
import type { Clock } from '../infra/clock/clock.js';
import type { EventBus } from '../infra/pubsub/event-bus.js';

export const SESSION_REVOKED_CHANNEL = 'auth.session_revoked';
const TTL_MS = 5_000;
const MAX_ENTRIES = 50_000;

export class SessionCache {
  private readonly entries = new Map<string, { valid: boolean; until: number }>();

  constructor(private readonly clock: Clock) {}

  async listen(bus: EventBus): Promise<void> {
    await bus.subscribe(SESSION_REVOKED_CHANNEL, (message) => {
      const sessionId = (message as { sessionId?: unknown }).sessionId;
      if (typeof sessionId === 'string') this.entries.delete(sessionId);
    });
  }

  get(sessionId: string): boolean | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.until < this.clock.now()) {
      this.entries.delete(sessionId);
      return undefined;
    }
    return entry.valid;
  }

  set(sessionId: string, valid: boolean): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(sessionId, { valid, until: this.clock.now() + TTL_MS });
  }

  drop(sessionId: string): void {
    this.entries.delete(sessionId);
  }
}
