/**
 * Secrets the operator may set in the environment; otherwise generated once and kept in DATA_DIR/keys
 * (mode 0600), so tokens and signed links survive a restart. A key file must hold at least
 * MIN_KEY_BYTES of key material: a short or damaged one stops the start with the file's name.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** HMAC-SHA256 and AES-256 keys: 32 bytes. */
export const MIN_KEY_BYTES = 32;

const BASE64URL = /^[A-Za-z0-9_-]+$/;

export class SecretFileError extends Error {
  constructor(file: string, problem: string) {
    super(
      `${file}: ${problem}; replace it with at least ${MIN_KEY_BYTES} random bytes in base64url, or delete it to have a new key generated (tokens and links signed with the old key stop working)`,
    );
    this.name = 'SecretFileError';
  }
}

function readKeyFile(file: string): Buffer {
  const text = readFileSync(file, 'utf8').trim();
  if (!BASE64URL.test(text)) throw new SecretFileError(file, 'the key is not base64url text');
  const key = Buffer.from(text, 'base64url');
  if (key.length < MIN_KEY_BYTES) throw new SecretFileError(file, `the key is ${key.length} bytes, shorter than ${MIN_KEY_BYTES}`);
  return key;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/**
 * Writes a new key without ever exposing a partial file: the key goes to a temporary file in the same
 * directory, which is then linked to its name. link() is rename() that refuses to replace: when another
 * instance created the key first, we get EEXIST and use theirs, so every instance agrees on one key.
 */
function createKeyFile(dir: string, file: string): Buffer {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(MIN_KEY_BYTES);
  const temporary = join(dir, `.${randomBytes(8).toString('hex')}.tmp`);
  try {
    writeFileSync(temporary, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
    linkSync(temporary, file);
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(file);
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

export function loadOrCreateSecret(dataDir: string | null, name: string, fromEnv: string | null): Buffer {
  // Environment values are checked where they are parsed (src/config.ts).
  if (fromEnv) return Buffer.from(fromEnv, 'utf8');
  if (dataDir === null) return randomBytes(MIN_KEY_BYTES);
  const dir = join(dataDir, 'keys');
  const file = join(dir, `${name}.key`);
  try {
    return readKeyFile(file);
  } catch (error) {
    if (!isMissing(error)) throw error;
    return createKeyFile(dir, file);
  }
}
