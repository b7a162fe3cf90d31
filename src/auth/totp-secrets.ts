/**
 * TOTP secrets at rest: sealed with the 'totp-secrets' key of DATA_DIR/keys (the shared SecretBox), bound
 * to their user's id, so a database dump gives nobody the second factor and a sealed value copied onto
 * another user does not open. The key is not in the database, so no SQL migration can seal the secrets an
 * older version stored in clear: `sealClear` does it at start (AuthService.bootstrap).
 */
import { SecretBox } from '../infra/secret-box.js';
import { newTotpSecret } from './totp.js';

export const TOTP_KEY_FILE = 'totp-secrets';

const DECOY_CONTEXT = 'totp:decoy';

export class TotpSecrets {
  private readonly box: SecretBox;
  /** Opened for accounts without a secret, so every login attempt does the same work. */
  private readonly decoy: string;

  constructor(keyMaterial: Buffer) {
    this.box = new SecretBox(keyMaterial, { purpose: 'TOTP secrets', keyFile: TOTP_KEY_FILE });
    this.decoy = this.box.seal(newTotpSecret(), DECOY_CONTEXT);
  }

  static isSealed(stored: string): boolean {
    return SecretBox.isSealed(stored);
  }

  seal(userId: string, secret: string): string {
    return this.box.seal(secret, context(userId));
  }

  /**
   * The clear secret, or null when there is none or it does not open (another key, or copied from another
   * row): then no code is right. A value still in clear (written by an older instance during a rolling
   * upgrade) is used as is until the next start seals it.
   */
  open(userId: string, stored: string | null): string | null {
    if (stored === null) return null;
    if (!SecretBox.isSealed(stored)) return stored;
    try {
      return this.box.open(stored, context(userId));
    } catch {
      return null;
    }
  }

  /** The same work as `open` on a sealed secret, for an attempt on an account that has none. */
  openDecoy(): string {
    return this.box.open(this.decoy, DECOY_CONTEXT);
  }

  /** Whether the user's stored secret is usable with this key (false: none, or sealed under another key). */
  opens(userId: string, stored: string | null): boolean {
    return this.open(userId, stored) !== null;
  }
}

function context(userId: string): string {
  return `totp:${userId}`;
}
