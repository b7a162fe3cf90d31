/** Unit tests: envelope bytes and signatures, the event id, secrets at rest, and the retry schedule. */
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/platform/webhooks/secret-box.js';
import { eventIdOf, newWebhookSecret, platformBody, stationBody, webhookMessageIdOf } from '../../src/platform/webhooks/signing.js';
import { DEFAULT_RETRY_POLICY, retryDelayMs, worstCaseRetryWindowMs } from '../../src/platform/webhooks/retry-policy.js';

const hmac = (secret: string, text: string) => `sha256=${createHmac('sha256', secret).update(text).digest('hex')}`;

describe('envelopes', () => {
  const message = { event: 'station.radio.enabled', timestamp: '2026-01-15T12:00:00.000Z', data: { a: 1, ü: ['x'] } };

  it('station: the signature covers {"event","timestamp","data"} exactly as the body starts', () => {
    const body = stationBody(message, 'whsec_k');
    const head = '{"event":"station.radio.enabled","timestamp":"2026-01-15T12:00:00.000Z","data":{"a":1,"ü":["x"]}';
    expect(body).toBe(`${head},"signature":"${hmac('whsec_k', `${head}}`)}"}`);
    expect(JSON.parse(body).signature).toMatch(/^sha256=[0-9a-f]{64}$/);
  });

  it('platform: {"event","data","timestamp"} with no signature inside', () => {
    expect(platformBody(message)).toBe('{"event":"station.radio.enabled","data":{"a":1,"ü":["x"]},"timestamp":"2026-01-15T12:00:00.000Z"}');
  });

  it('the event id ignores key order, and differs with any field', () => {
    const same = { timestamp: message.timestamp, data: { ü: ['x'], a: 1 }, event: message.event };
    expect(eventIdOf(same)).toBe(eventIdOf(message));
    expect(eventIdOf({ ...message, timestamp: '2026-01-15T12:00:00.001Z' })).not.toBe(eventIdOf(message));
    expect(webhookMessageIdOf('w1', eventIdOf(message))).toBe(webhookMessageIdOf('w1', eventIdOf(same)));
    expect(webhookMessageIdOf('w2', eventIdOf(message))).not.toBe(webhookMessageIdOf('w1', eventIdOf(message)));
  });

  it('secrets are whsec_ and random', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });
});

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('round-trips, with a fresh IV each time', () => {
    const sealed = box.seal('whsec_abc', 'id-1');
    expect(box.open(sealed, 'id-1')).toBe('whsec_abc');
    expect(box.seal('whsec_abc', 'id-1')).not.toBe(sealed);
  });

  it('refuses another row’s context, another key and tampering', () => {
    const sealed = box.seal('whsec_abc', 'id-1');
    expect(() => box.open(sealed, 'id-2')).toThrow(/does not decrypt/);
    expect(() => new SecretBox(randomBytes(32)).open(sealed, 'id-1')).toThrow(/does not decrypt/);
    const parts = sealed.split('.');
    parts[3] = Buffer.from('whsec_abd').toString('base64url');
    expect(() => box.open(parts.join('.'), 'id-1')).toThrow();
  });
});

describe('retry schedule', () => {
  it('is at least 6 attempts spread over about a day', () => {
    expect(DEFAULT_RETRY_POLICY.maxAttempts).toBeGreaterThanOrEqual(6);
    const hours = worstCaseRetryWindowMs(DEFAULT_RETRY_POLICY) / 3_600_000;
    expect(hours).toBeGreaterThan(20);
    expect(hours).toBeLessThan(30);
  });

  it('doubles from the base, is capped, jitters in [0, ceiling], and stops after the last attempt', () => {
    const policy = { maxAttempts: 6, baseMs: 100, capMs: 1_000, random: () => 0.999999 };
    expect([1, 2, 3, 4, 5].map((n) => retryDelayMs(n, policy))).toEqual([99, 199, 399, 799, 999]);
    expect(retryDelayMs(6, policy)).toBeNull();
    expect(retryDelayMs(3, { ...policy, random: () => 0 })).toBe(0);
    for (let i = 0; i < 100; i++) {
      const d = retryDelayMs(4, { ...policy, random: Math.random })!;
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThanOrEqual(800);
    }
  });
});
