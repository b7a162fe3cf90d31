/**
 * Accounts made by the operator rather than by sign-up: at start-up, TOTP secrets an older version left in
 * clear are sealed, and the super_admin of STATION_ADMIN_* is created if missing (the service key of
 * STATION_SERVICE_API_KEY is ApiKeys', api-keys.service.ts); and users of any role created for seeding and by
 * admins. No HTTP here.
 */
import { randomUUID } from 'node:crypto';
import { Errors } from '../errors.js';
import type { AuthRepository } from './auth.repository.js';
import { decoyPasswordHash, type PasswordHasher } from './passwords.js';
import { publicUser, type PublicUser } from './public-user.js';
import type { Role } from './scopes.js';
import { TOTP_KEY_FILE, type TotpSecrets } from './totp-secrets.js';

export interface BootstrapAdmin {
  email: string;
  password: string;
  totpSecret: string;
}

export interface NewUser {
  email: string;
  password: string;
  role: Role;
  displayName: string;
  totpSecret?: string;
  /**
   * Whether the address counts as verified (default true): the operator made the account (STATION_ADMIN_*, the
   * demo, seeding) and vouches for it. False for an account whose address nobody checked.
   */
  emailVerified?: boolean;
}

const SEAL_BATCH = 100;

export class AccountProvisioning {
  constructor(
    private readonly repo: AuthRepository,
    private readonly passwords: PasswordHasher,
    private readonly totpSecrets: TotpSecrets,
  ) {}

  /**
   * An existing bootstrap admin whose stored secret does not open (DATA_DIR/keys/totp-secrets.key was
   * replaced) gets STATION_ADMIN_TOTP_SECRET sealed again, so the operator can still log in. Returns warnings to log.
   */
  async bootstrap(admin: BootstrapAdmin | null): Promise<string[]> {
    const warnings: string[] = [];
    await decoyPasswordHash(); // computed now, so the first login for an unknown e-mail is not the slow one
    await this.sealClearTotpSecrets();
    if (admin) {
      const existing = await this.repo.findUserByEmail(admin.email);
      if (!existing) {
        await this.createUser({
          email: admin.email,
          password: admin.password,
          role: 'super_admin',
          displayName: 'Station administrator',
          totpSecret: admin.totpSecret,
        });
      } else if (!this.totpSecrets.opens(existing.id, existing.totpSecret)) {
        await this.repo.replaceTotpSecret(existing.id, existing.totpSecret, this.totpSecrets.seal(existing.id, admin.totpSecret));
        warnings.push(
          `the stored TOTP secret of ${admin.email} did not open with DATA_DIR/keys/${TOTP_KEY_FILE}.key; ` +
            'STATION_ADMIN_TOTP_SECRET was sealed again. Other accounts sealed under the previous key cannot pass TOTP until re-enrolled.',
        );
      }
      if (existing) await this.markOperatorAddressVerified(existing);
    }
    return warnings;
  }

  async createUser(input: NewUser): Promise<PublicUser> {
    const id = randomUUID();
    const user = await this.repo.insertUser({
      id,
      email: input.email,
      passwordHash: await this.passwords.hash(input.password),
      role: input.role,
      displayName: input.displayName,
      totpSecret: input.totpSecret ? this.totpSecrets.seal(id, input.totpSecret) : null,
      emailVerifiedAt: input.emailVerified === false ? null : new Date(),
    });
    if (!user) throw Errors.conflict('An account with this e-mail already exists');
    return publicUser(user);
  }

  /** The STATION_ADMIN_* account made before addresses were verified counts as verified, like a new one. */
  private async markOperatorAddressVerified(user: { id: string; email: string; emailVerifiedAt: Date | null }): Promise<void> {
    if (!user.emailVerifiedAt) await this.repo.markEmailVerified(user.id, user.email, new Date());
  }

  private async sealClearTotpSecrets(): Promise<void> {
    for (;;) {
      const batch = await this.repo.usersWithClearTotpSecret(SEAL_BATCH);
      for (const row of batch) {
        await this.repo.replaceTotpSecret(row.id, row.totpSecret, this.totpSecrets.seal(row.id, row.totpSecret));
      }
      if (batch.length < SEAL_BATCH) return;
    }
  }
}
