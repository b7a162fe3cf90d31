/**
 * Long-lived connections (WebSocket clients, stream listeners) are authenticated once, when they open. The
 * guard keeps them honest afterwards: when their login session is revoked it closes them, and when their
 * user's role or status changes it reads the credential again from the database and closes those that lost
 * their access ('revoked': banned, revoked or expired; 'forbidden': the new role lacks the scope). Both
 * events come over the event bus, so every instance closes its own connections whichever instance acted.
 * Before a connection opens, `admit` takes one of its credential's connection slots (connection-limits.ts).
 */
import type { EventBus } from '../infra/pubsub/event-bus.js';
import type { CredentialResolver } from './access.js';
import type { ConnectionKind, ConnectionLimits } from './connection-limits.js';
import { SESSION_REVOKED_CHANNEL, USER_CHANGED_CHANNEL, sessionIdOf, userIdOf } from './auth-events.js';
import type { Principal } from './principal.js';
import type { Scope } from './scopes.js';

export type CloseReason = 'revoked' | 'forbidden';

/** What long-lived connections need of authentication. */
export interface LiveAccess {
  /** The principal of a credential id as it is now; null when the credential no longer works. */
  principalOf(credentialId: string): Promise<Principal | null>;
  /**
   * Calls `close` when the connection must end: its credential revoked, its user banned, or its user's new
   * role without `scope`. Returns the function to call when the connection ends by itself.
   */
  hold(principal: Principal, scope: Scope, close: (reason: CloseReason) => void): () => void;
  /**
   * Takes one of the credential's concurrent `kind` connections before the connection opens; throws
   * RATE_LIMITED (429, Retry-After) when they are all taken. Returns the function that gives it back on close.
   */
  admit(kind: ConnectionKind, principal: Principal): Promise<() => void>;
}

interface Held {
  credentialId: string;
  scope: Scope;
  close: (reason: CloseReason) => void;
}

export class ConnectionGuard implements LiveAccess {
  private readonly byCredential = new Map<string, Set<Held>>();
  private readonly byUser = new Map<string, Set<Held>>();
  private unsubscribes: Array<() => Promise<void>> = [];

  constructor(
    private readonly credentials: CredentialResolver,
    private readonly limits: Pick<ConnectionLimits, 'admit'>,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  async start(bus: EventBus): Promise<void> {
    this.unsubscribes.push(
      await bus.subscribe(SESSION_REVOKED_CHANNEL, (message) => {
        const sessionId = sessionIdOf(message);
        if (sessionId) this.closeAll(this.byCredential.get(sessionId), 'revoked');
      }),
      await bus.subscribe(USER_CHANGED_CHANNEL, (message) => {
        const userId = userIdOf(message);
        if (userId) void this.recheckUser(userId).catch(this.onError);
      }),
    );
  }

  async stop(): Promise<void> {
    const unsubscribes = this.unsubscribes;
    this.unsubscribes = [];
    await Promise.all(unsubscribes.map((unsubscribe) => unsubscribe().catch(() => undefined)));
  }

  principalOf(credentialId: string): Promise<Principal | null> {
    return this.credentials.principalOf(credentialId);
  }

  admit(kind: ConnectionKind, principal: Principal): Promise<() => void> {
    return this.limits.admit(kind, principal.credentialId);
  }

  hold(principal: Principal, scope: Scope, close: (reason: CloseReason) => void): () => void {
    const held: Held = { credentialId: principal.credentialId, scope, close };
    add(this.byCredential, held.credentialId, held);
    if (principal.userId) add(this.byUser, principal.userId, held);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      remove(this.byCredential, held.credentialId, held);
      if (principal.userId) remove(this.byUser, principal.userId, held);
    };
  }

  /** How many connections are held (for tests and metrics). */
  size(): number {
    let count = 0;
    for (const set of this.byCredential.values()) count += set.size;
    return count;
  }

  private async recheckUser(userId: string): Promise<void> {
    const held = this.byUser.get(userId);
    if (!held) return;
    const byCredential = new Map<string, Held[]>();
    for (const entry of held) byCredential.set(entry.credentialId, [...(byCredential.get(entry.credentialId) ?? []), entry]);
    // One fresh read per credential, past the session cache: this handler may run before the cache's own.
    for (const [credentialId, entries] of byCredential) {
      const principal = await this.credentials.principalOf(credentialId, { fresh: true });
      for (const entry of entries) {
        if (!principal) this.closeOne(entry, 'revoked');
        else if (!principal.scopes.has(entry.scope)) this.closeOne(entry, 'forbidden');
      }
    }
  }

  private closeAll(held: Set<Held> | undefined, reason: CloseReason): void {
    for (const entry of [...(held ?? [])]) this.closeOne(entry, reason);
  }

  /** Fan-out fails per target: one connection that throws while closing does not keep the others open. */
  private closeOne(entry: Held, reason: CloseReason): void {
    try {
      entry.close(reason);
    } catch (error) {
      this.onError(error);
    }
  }
}

function add(index: Map<string, Set<Held>>, key: string, held: Held): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(held);
}

function remove(index: Map<string, Set<Held>>, key: string, held: Held): void {
  const set = index.get(key);
  set?.delete(held);
  if (set?.size === 0) index.delete(key);
}
