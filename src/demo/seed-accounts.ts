/**
 * The demo's accounts (STATION_DEMO=true): one listener, one artist and one integrator, so a visitor can try
 * each side of the platform. The artist owns a new demo artist, unverified and not platform-owned (its tracks
 * are public, off the radio, until an admin verifies it); the integrator has a developer account and a test key.
 *
 * Passwords are derived from the JWT key (an HMAC per role), so every instance of one station, which shares that
 * key, knows them without storing them in clear, and GET /v1/demo/accounts can show them on the sign-in page.
 * Seeding is idempotent: an account that exists is left alone; credentials (and the key) are logged once, when
 * the accounts are made.
 */
import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { NewUser } from '../auth/account-provisioning.js';
import type { Scope } from '../auth/scopes.js';
import type { Db } from '../infra/db/client.js';
import { DomainError } from '../errors.js';
import { artists } from '../infra/db/schema/index.js';
import { DeveloperAccountsRepository } from '../platform/developer/developer-accounts.js';
import type { Environment } from '../kernel/environment.js';

export type DemoRole = 'listener' | 'artist' | 'integrator';

export interface DemoAccount {
  role: DemoRole;
  email: string;
  password: string;
}

/** What seeding needs of the accounts (AuthService). */
export interface DemoAccountsAuth {
  createUser(input: NewUser): Promise<{ id: string }>;
  createApiKey(input: { name: string; scopes: readonly Scope[]; environment: Environment; ownerUserId: string | null }): Promise<{ id: string; key: string }>;
}

const ACCOUNTS: readonly { role: DemoRole; email: string; displayName: string; userRole: NewUser['role'] }[] = [
  { role: 'listener', email: 'demo-listener@station.demo', displayName: 'Demo Listener', userRole: 'listener' },
  { role: 'artist', email: 'demo-artist@station.demo', displayName: 'Demo Artist', userRole: 'artist' },
  // An integrator is any user with a developer account; the staff role `developer` is given by admins only.
  { role: 'integrator', email: 'demo-integrator@station.demo', displayName: 'Demo Integrator', userRole: 'listener' },
];

/** The demo artist account's own artist: unverified, so it shows what verification changes. */
export const DEMO_OWN_ARTIST = {
  slug: 'paper-lanterns',
  name: 'Paper Lanterns',
  genre: 'indie',
  bio: 'The demo artist account’s own band: bedroom indie with warm guitars. Unverified until an admin verifies it.',
} as const;

const INTEGRATOR_KEY_SCOPES: readonly Scope[] = ['tracks:read', 'streams:read', 'users:read'];

export class DemoAccounts {
  constructor(
    private readonly db: Db,
    private readonly auth: DemoAccountsAuth,
    /** The JWT key: shared by every instance of a station, so each derives the same passwords. */
    private readonly key: Buffer,
  ) {}

  /** The three accounts with their passwords (GET /v1/demo/accounts, STATION_DEMO only). */
  list(): DemoAccount[] {
    return ACCOUNTS.map(({ role, email }) => ({ role, email, password: this.passwordOf(role) }));
  }

  private passwordOf(role: DemoRole): string {
    return `demo-${createHmac('sha256', this.key).update(`station demo account ${role}`).digest('base64url').slice(0, 16)}`;
  }

  /** Creates what is missing; logs the credentials of the accounts made now (and the integrator's test key). */
  async seed(log: FastifyBaseLogger): Promise<void> {
    const made: DemoAccount[] = [];
    for (const account of ACCOUNTS) {
      const password = this.passwordOf(account.role);
      let user: { id: string };
      try {
        user = await this.auth.createUser({ email: account.email, password, role: account.userRole, displayName: account.displayName });
      } catch (error) {
        // It exists (seeded before, or by another instance just now): nothing to do.
        if (error instanceof DomainError && error.kind === 'conflict') continue;
        throw error;
      }
      made.push({ role: account.role, email: account.email, password });
      if (account.role === 'artist') {
        await this.db
          .insert(artists)
          .values({ ...DEMO_OWN_ARTIST, ownerUserId: user.id })
          .onConflictDoNothing();
      }
      if (account.role === 'integrator') {
        await new DeveloperAccountsRepository(this.db).open(user.id);
        const key = await this.auth.createApiKey({ name: 'demo test key', scopes: INTEGRATOR_KEY_SCOPES, environment: 'test', ownerUserId: user.id });
        log.info({ email: account.email, test_key: key.key }, 'demo integrator test key (shown once)');
      }
    }
    for (const account of made) log.info(account, `try the demo as ${account.role}`);
  }
}
