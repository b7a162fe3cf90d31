/** Keys under DATA_DIR/keys: generated once, written whole (temp file + link), and refused when too short. */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIN_KEY_BYTES, SecretFileError, loadOrCreateSecret } from '../../src/infra/secrets.js';

describe('loadOrCreateSecret', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'station-keys-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const keyFile = (name: string) => join(dataDir, 'keys', `${name}.key`);

  it('generates a 32-byte key once, mode 0600, leaving no temporary file, and reads the same key back', () => {
    const first = loadOrCreateSecret(dataDir, 'jwt', null);
    expect(first).toHaveLength(MIN_KEY_BYTES);
    expect(statSync(keyFile('jwt')).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dataDir, 'keys'))).toEqual(['jwt.key']);
    expect(loadOrCreateSecret(dataDir, 'jwt', null).equals(first)).toBe(true);
    expect(Buffer.from(readFileSync(keyFile('jwt'), 'utf8'), 'base64url').equals(first)).toBe(true);
  });

  it('refuses a key file shorter than 32 bytes, naming the file', () => {
    mkdirSync(join(dataDir, 'keys'), { recursive: true });
    writeFileSync(keyFile('media'), Buffer.alloc(16, 7).toString('base64url'));
    expect(() => loadOrCreateSecret(dataDir, 'media', null)).toThrow(SecretFileError);
    expect(() => loadOrCreateSecret(dataDir, 'media', null)).toThrow(new RegExp(`${keyFile('media')}: the key is 16 bytes, shorter than 32`));
    // the short key is left for the operator to look at, not silently replaced
    expect(readFileSync(keyFile('media'), 'utf8')).toBe(Buffer.alloc(16, 7).toString('base64url'));
  });

  it('refuses an empty or non-base64url key file', () => {
    mkdirSync(join(dataDir, 'keys'), { recursive: true });
    writeFileSync(keyFile('csrf'), '');
    expect(() => loadOrCreateSecret(dataDir, 'csrf', null)).toThrow(/csrf\.key: the key is not base64url text/);
    writeFileSync(keyFile('csrf'), `${'a'.repeat(40)}!!`);
    expect(() => loadOrCreateSecret(dataDir, 'csrf', null)).toThrow(/csrf\.key/);
  });

  it('accepts a key of 32 bytes or more written by the operator (trailing newline allowed)', () => {
    mkdirSync(join(dataDir, 'keys'), { recursive: true });
    const key = Buffer.alloc(48, 3);
    writeFileSync(keyFile('webhook'), `${key.toString('base64url')}\n`);
    expect(loadOrCreateSecret(dataDir, 'webhook', null).equals(key)).toBe(true);
  });

  it('uses an environment value as given (its length is checked where it is parsed) and writes no file', () => {
    expect(loadOrCreateSecret(dataDir, 'jwt', 'x'.repeat(40)).toString()).toBe('x'.repeat(40));
    expect(() => readdirSync(join(dataDir, 'keys'))).toThrow();
  });
});
