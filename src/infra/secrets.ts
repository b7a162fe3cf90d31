/**
 * Secrets the operator may set in the environment; otherwise generated once and kept in DATA_DIR/keys
 * (mode 0600), so tokens and signed links survive a restart.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function loadOrCreateSecret(dataDir: string | null, name: string, fromEnv: string | null): Buffer {
  if (fromEnv) return Buffer.from(fromEnv, 'utf8');
  if (dataDir === null) return randomBytes(32);
  const dir = join(dataDir, 'keys');
  const file = join(dir, `${name}.key`);
  try {
    return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
  } catch {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const secret = randomBytes(32);
    // 'wx' fails if another instance wrote the file first; then read theirs so both agree.
    try {
      writeFileSync(file, secret.toString('base64url'), { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
    }
  }
}
