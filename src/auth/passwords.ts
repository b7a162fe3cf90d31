/** argon2id with OWASP's minimum parameters (m = 46 MiB, t = 1, p = 1), through @node-rs/argon2's prebuilt binary. */
import { randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { ConcurrencyLimit } from '../lib/concurrency-limit.js';

/** Algorithm.Argon2id; the library's const enum cannot be imported under isolatedModules. */
const ARGON2ID = 2;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 47_104, timeCost: 1, parallelism: 1 };

/** The password port AuthService uses (argon2id below; tests observe it by wrapping the real one). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
}

/**
 * argon2 runs on libuv's thread pool (4 threads unless UV_THREADPOOL_SIZE says otherwise), which file reads
 * and writes (media, blobs) and WebCrypto (JWT signatures) share. Each hash keeps a thread busy for tens of
 * milliseconds, so a burst of logins would take every thread and stall the rest; two at a time leaves the
 * others free, and two is already as many as a 2-core machine can compute at once.
 */
const argon2Turns = new ConcurrencyLimit(2);

/** argon2 computations running now and waiting for a turn. */
export function passwordHashingLoad(): { running: number; queued: number } {
  return { running: argon2Turns.running, queued: argon2Turns.queued };
}

export function hashPassword(password: string): Promise<string> {
  return argon2Turns.run(() => hash(password, OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await argon2Turns.run(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

export const argon2Passwords: PasswordHasher = { hash: hashPassword, verify: verifyPassword };

/**
 * A hash of a random password, verified when the e-mail is unknown so that a login for a missing
 * account takes as long as one for an existing account (no user enumeration by timing).
 */
let decoyHash: Promise<string> | null = null;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(`decoy-${randomBytes(16).toString('base64url')}`);
  return decoyHash;
}
