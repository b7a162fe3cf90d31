/** RFC 6238 TOTP (SHA-1, 6 digits, 30 s) through otplib, with one step of clock drift and replay refusal. */
import { authenticator } from 'otplib';

const STEP_SECONDS = 30;

/**
 * Returns the time step the code belongs to, or null when it is wrong or not newer than `lastStep`
 * (a code that was already used, or an older one, is a replay).
 */
export function acceptTotp(secret: string, code: string, nowMs: number, lastStep: number | null): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const checker = authenticator.clone({ window: 1, epoch: nowMs, step: STEP_SECONDS, digits: 6 });
  let delta: number | null;
  try {
    delta = checker.checkDelta(code, secret);
  } catch {
    return null;
  }
  if (delta === null) return null;
  const step = Math.floor(nowMs / 1000 / STEP_SECONDS) + delta;
  if (lastStep !== null && step <= lastStep) return null;
  return step;
}

/** The current code for a secret (used by tests and by operators' tooling). */
export function totpCode(secret: string, nowMs: number): string {
  return authenticator.clone({ epoch: nowMs, step: STEP_SECONDS, digits: 6 }).generate(secret);
}

export function newTotpSecret(): string {
  return authenticator.generateSecret(20);
}
