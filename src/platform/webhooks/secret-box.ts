/**
 * Webhook secrets at rest: AES-256-GCM under a key kept in DATA_DIR/keys (loadOrCreateSecret
 * 'webhook-secrets'), so a database dump alone cannot forge deliveries. The webhook id is the additional
 * authenticated data, so a ciphertext copied onto another row does not decrypt. Instances that share a
 * database must share that key (they share DATA_DIR, as they already do for the JWT and CSRF keys).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export class SecretBox {
  private readonly key: Buffer;

  constructor(keyMaterial: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', keyMaterial, Buffer.alloc(0), 'station webhook secrets v1', 32));
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
      throw new SecretBoxError('the webhook secret does not decrypt: DATA_DIR/keys/webhook-secrets.key differs from the one that sealed it');
    }
  }
}
