/**
 * What a receiver verifies (contract.md, "Webhooks"). Every signature is `sha256=<hex>` of HMAC-SHA256 keyed
 * with the webhook secret's UTF-8 bytes (the whole `whsec_...` string):
 * - X-Station-Signature / X-Platform-Signature: over the raw body;
 * - a station envelope's own `signature` field: over `{"event","timestamp","data"}` exactly as the body
 *   starts, i.e. the body up to the `,"signature"` member, plus the closing `}`.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { canonicalJson } from '../../lib/canonical-json.js';
import type { EventFamily } from './event-names.js';

export const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function signatureOf(text: string, secret: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(text, 'utf8').digest('hex')}`;
}

export interface EventMessage {
  event: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/** `{"event","timestamp","data","signature"}`, the signature covering the members before it. */
export function stationBody(message: EventMessage, secret: string | Buffer): string {
  const signed = JSON.stringify({ event: message.event, timestamp: message.timestamp, data: message.data });
  const signature = signatureOf(signed, secret);
  return `${signed.slice(0, -1)},"signature":${JSON.stringify(signature)}}`;
}

/** `{"event","data","timestamp"}`; the header signature is the only one. */
export function platformBody(message: EventMessage): string {
  return JSON.stringify({ event: message.event, data: message.data, timestamp: message.timestamp });
}

export function bodyFor(family: EventFamily, message: EventMessage, secret: string | Buffer): string {
  return family === 'station' ? stationBody(message, secret) : platformBody(message);
}

export function signatureHeaderOf(family: EventFamily): 'X-Station-Signature' | 'X-Platform-Signature' {
  return family === 'station' ? 'X-Station-Signature' : 'X-Platform-Signature';
}

/** The same on every instance that receives the bus message: the dedupe key of its deliveries. */
export function eventIdOf(message: EventMessage): string {
  const canonical = canonicalJson({ event: message.event, timestamp: message.timestamp, data: message.data });
  return createHash('sha256').update(canonical).digest('hex');
}

/** X-Webhook-Id: one per event and endpoint, the same on every retry. */
export function webhookMessageIdOf(webhookId: string, eventId: string): string {
  return `msg_${createHash('sha256').update(`${webhookId}\u0000${eventId}`).digest('hex').slice(0, 32)}`;
}
