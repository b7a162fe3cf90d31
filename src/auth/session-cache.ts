/**
 * Login sessions as the database has them (valid or not, the user's role, whether TOTP was passed), cached
 * for a few seconds so that a request costs no query. Role and status are read from here, never from the
 * token's claim. A revocation, ban or role change publishes on the event bus and every instance drops the
 * entries concerned at once; the TTL only bounds staleness if a message is lost.
 */
import type { Clock } from '../infra/clock/clock.js';
import type { EventBus } from '../infra/pubsub/event-bus.js';
import { SESSION_REVOKED_CHANNEL, USER_CHANGED_CHANNEL, sessionIdOf, userIdOf, type SessionState } from './auth-events.js';

const TTL_MS = 5_000;
const MAX_ENTRIES = 50_000;

export class SessionCache {
  /** null: the session does not exist. */
  private readonly entries = new Map<string, { state: SessionState | null; until: number }>();
  private readonly sessionsOfUser = new Map<string, Set<string>>();

  constructor(private readonly clock: Clock) {}

  async listen(bus: EventBus): Promise<void> {
    await bus.subscribe(SESSION_REVOKED_CHANNEL, (message) => {
      const sessionId = sessionIdOf(message);
      if (sessionId) this.drop(sessionId);
    });
    await bus.subscribe(USER_CHANGED_CHANNEL, (message) => {
      const userId = userIdOf(message);
      if (userId) this.dropUser(userId);
    });
  }

  /** undefined: not cached (ask the database). */
  get(sessionId: string): SessionState | null | undefined {
    const entry = this.entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.until < this.clock.now()) {
      this.drop(sessionId);
      return undefined;
    }
    return entry.state;
  }

  set(sessionId: string, state: SessionState | null): void {
    if (this.entries.size >= MAX_ENTRIES) {
      this.entries.clear();
      this.sessionsOfUser.clear();
    }
    this.drop(sessionId);
    this.entries.set(sessionId, { state, until: this.clock.now() + TTL_MS });
    if (state) {
      let sessions = this.sessionsOfUser.get(state.userId);
      if (!sessions) this.sessionsOfUser.set(state.userId, (sessions = new Set()));
      sessions.add(sessionId);
    }
  }

  drop(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (!entry) return;
    this.entries.delete(sessionId);
    const userId = entry.state?.userId;
    if (!userId) return;
    const sessions = this.sessionsOfUser.get(userId);
    sessions?.delete(sessionId);
    if (sessions?.size === 0) this.sessionsOfUser.delete(userId);
  }

  dropUser(userId: string): void {
    for (const sessionId of this.sessionsOfUser.get(userId) ?? []) this.entries.delete(sessionId);
    this.sessionsOfUser.delete(userId);
  }
}
