/**
 * Listener tickets for stream_url. A browser's <audio> element cannot send an Authorization header, so
 * stream-info hands out a URL carrying a short-lived, HMAC-signed ticket for the caller instead of the
 * bearer token itself (which would then sit in logs and histories). The ticket names the caller's
 * credential (login session or API key), so it stops working when that credential is revoked, and the
 * stream it opened ends then too (radio/module.ts).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../infra/clock/clock.js';

export const STREAM_TICKET_TTL_SEC = 12 * 3600;

export class StreamTickets {
  constructor(
    private readonly key: Buffer,
    private readonly clock: Clock,
  ) {}

  private mac(payload: string): string {
    return createHmac('sha256', this.key).update(`stream:${payload}`).digest('base64url');
  }

  /** A ticket for `credentialId` (Principal.credentialId), and when it stops opening streams. */
  issue(subject: string): { ticket: string; expiresAt: Date } {
    const exp = Math.floor(this.clock.now() / 1000) + STREAM_TICKET_TTL_SEC;
    const payload = `${exp}.${Buffer.from(subject).toString('base64url')}`;
    return { ticket: `${payload}.${this.mac(payload)}`, expiresAt: new Date(exp * 1000) };
  }

  /** The ticket's subject, or null when it is forged, altered or expired. */
  verify(ticket: string | undefined): string | null {
    if (!ticket) return null;
    const parts = ticket.split('.');
    if (parts.length !== 3 || !/^\d{1,12}$/.test(parts[0])) return null;
    const payload = `${parts[0]}.${parts[1]}`;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(parts[2]);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
    if (Number(parts[0]) * 1000 <= this.clock.now()) return null;
    return Buffer.from(parts[1], 'base64url').toString('utf8');
  }
}
