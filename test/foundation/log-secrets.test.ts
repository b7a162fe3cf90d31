/**
 * Secrets never reach the logs. Some credentials travel in a URL's query because the client cannot send them
 * otherwise: the WebSocket channels' `?token=<JWT>` (their routes log at warn, through the same serializer), the
 * mailed password-reset and verify-email links, the sandbox processor's signed pages. Every request's log line
 * carries its URL, so the query's values must not.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { stationForSuite } from '../helpers/station.js';

const lines: string[] = [];
const stream = new Writable({
  write(chunk, _encoding, done) {
    lines.push(String(chunk));
    done();
  },
});

describe('request logs', () => {
  const station = stationForSuite({}, { fakeEngine: true, logger: { level: 'info', stream } });

  it.each([
    ['a password-reset link', '/reset-password?token=RESET-SECRET-0123456789'],
    ['a verify-email link', '/verify-email?token=VERIFY-SECRET-0123456789'],
    ['a sandbox checkout page', '/v1/store/sandbox/checkout/cs_1?token=PAGE-SECRET-0123456789&x=1'],
  ])('keep the path of %s, never its query values', async (_what, url) => {
    lines.length = 0;
    await station.http.inject({ method: 'GET', url });
    const logged = lines.join('');
    expect(logged).toContain(url.slice(0, url.indexOf('?')));
    expect(logged).not.toMatch(/SECRET-0123456789/);
  });
});
