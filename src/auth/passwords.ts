/** argon2id with OWASP's minimum parameters (m = 46 MiB, t = 1, p = 1), through @node-rs/argon2's prebuilt binary. */
import { hash, verify } from '@node-rs/argon2';

/** Algorithm.Argon2id; the library's const enum cannot be imported under isolatedModules. */
const ARGON2ID = 2;

const OPTIONS = { algorithm: ARGON2ID, memoryCost: 47_104, timeCost: 1, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/**
 * A hash of a random password, verified when the e-mail is unknown so that a login for a missing
 * account takes as long as one for an existing account (no user enumeration by timing).
 */
let decoyHash: Promise<string> | null = null;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(`decoy-${Math.random()}`);
  return decoyHash;
}
