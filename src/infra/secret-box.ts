/**
 * Secrets at rest (webhook secrets, TOTP secrets): AES-256-GCM under a key kept in DATA_DIR/keys, so a
 * database dump alone gives nobody the secret. Each use derives its own key from its key material (HKDF with
 * the purpose as info), and the caller passes a context (the owning row's id) as additional authenticated
 * data, so a ciphertext copied onto another row does not open. Instances that share a database must share
 * the key file (they share DATA_DIR, as they already do for the JWT and CSRF keys).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export interface SecretBoxPurpose {
  /** What is sealed, in words ("webhook secrets"); also the HKDF info, so changing it changes the key. */
  purpose: string;
  /** The DATA_DIR/keys file the key material comes from, named in the error when a secret does not open. */
  keyFile: string;
}

export class SecretBox {
  private readonly key: Buffer;

  constructor(
    keyMaterial: Buffer,
    private readonly use: SecretBoxPurpose,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', keyMaterial, Buffer.alloc(0), `station ${use.purpose} v1`, 32));
  }

  /** Whether a stored value has the sealed format (a clear value left by an older version does not). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(`${VERSION}.`);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
  }

  open(sealed: string, context: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new SecretBoxError('unrecognised secret format');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError(
        `${this.use.purpose}: a sealed value does not decrypt: DATA_DIR/keys/${this.use.keyFile}.key differs from the one that sealed it, or the value was moved to another row`,
      );
    }
  }
}
