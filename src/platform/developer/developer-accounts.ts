/**
 * Developer accounts (contract.md, "Accounts and onboarding"): any user with a verified address opens one with
 * POST /v1/developer/account, and may then create API keys and OAuth apps (src/auth/developer-keys.ts). It adds
 * the integrator's webhook scopes to any role (DEVELOPER_ACCOUNT_SCOPES), never a station scope the role lacks
 * (the staff role `developer`, with station:train, is given by admins only).
 */
import { eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DeveloperAccountCheck, DeveloperAccountFlag } from '../../auth/developer-account-reads.js';
import { loginSessionUser } from '../../auth/developer-keys.js';
import type { EmailVerifiedCheck } from '../../auth/email-verification.js';
import type { Principal } from '../../auth/principal.js';
import type { DbOrTx } from '../../infra/db/client.js';
import { developerAccounts } from '../../infra/db/schema/index.js';
import { SANDBOX_BASE_PATH } from '../../http/sandbox-base.js';

/**
 * The developer_accounts table, owned here; other modules read it only through the ports auth declares
 * (src/auth/developer-account-reads.ts): DeveloperAccountCheck, and DeveloperAccountFlag for a statement of theirs.
 */
export class DeveloperAccountsRepository implements DeveloperAccountCheck, DeveloperAccountFlag {
  constructor(private readonly db: DbOrTx) {}

  async find(userId: string): Promise<{ createdAt: Date } | null> {
    const [row] = await this.db.select({ createdAt: developerAccounts.createdAt }).from(developerAccounts).where(eq(developerAccounts.userId, userId)).limit(1);
    return row ?? null;
  }

  async hasDeveloperAccount(userId: string): Promise<boolean> {
    return (await this.find(userId)) !== null;
  }

  /**
   * Whether `userId` (a column of the caller's statement) opened an account, as an EXISTS on the primary key:
   * false for a null id (the bootstrap service key has no owner). Auth's per-request lookups select it.
   */
  developerAccountOf(userId: SQLWrapper): SQL<boolean> {
    return sql<boolean>`exists (select 1 from ${developerAccounts} where ${developerAccounts.userId} = ${userId})`;
  }

  /** Opens the account once: `created` is false when it existed already (a concurrent twin loses the insert). */
  async open(userId: string): Promise<{ createdAt: Date; created: boolean }> {
    const [row] = await this.db.insert(developerAccounts).values({ userId }).onConflictDoNothing().returning({ createdAt: developerAccounts.createdAt });
    if (row) return { createdAt: row.createdAt, created: true };
    const existing = await this.find(userId);
    if (!existing) throw new Error(`developer account of ${userId} neither inserted nor found`);
    return { createdAt: existing.createdAt, created: false };
  }
}

export interface DeveloperAccountView {
  developer_account: true;
  created_at: string;
  sandbox_base_url: string;
}

export class DeveloperAccountsService {
  constructor(
    private readonly repo: DeveloperAccountsRepository,
    private readonly verified: EmailVerifiedCheck,
    /** PUBLIC_BASE_URL: the sandbox's base address is `{PUBLIC_BASE_URL}/sandbox/v1`. */
    private readonly publicBaseUrl: string,
    /** The user's scopes just grew: every instance forgets its cached state of the user's sessions. */
    private readonly rights: { userChanged(userId: string): Promise<void> },
  ) {}

  /** Opens the caller's developer account (a login session with a verified address); idempotent. */
  async open(caller: Principal): Promise<{ view: DeveloperAccountView; created: boolean }> {
    const userId = loginSessionUser(caller, 'Developer accounts');
    await this.verified.assertEmailVerified(userId);
    const { createdAt, created } = await this.repo.open(userId);
    if (created) await this.rights.userChanged(userId);
    return { view: this.view(createdAt), created };
  }

  private view(createdAt: Date): DeveloperAccountView {
    return { developer_account: true, created_at: createdAt.toISOString(), sandbox_base_url: `${this.publicBaseUrl.replace(/\/+$/, '')}${SANDBOX_BASE_PATH}` };
  }
}
