/**
 * Per-account throttling on top of per-address limits, over real sockets behind a trusted proxy: every
 * attempt comes from a new client address, as from a botnet, so only the per-account counts can stop it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { totpCode } from '../../src/auth/totp.js';
import { hashPassword, verifyPassword, type PasswordHasher } from '../../src/auth/passwords.js';
import { ADMIN, stationForSuite, signupListener } from '../helpers/station.js';
import { clientAddress, errorWithoutRequestId, forwardedFor, listen, post, type HttpAnswer } from './support.js';

const PASSWORD = 'listener-password';

describe('per-account login throttling', () => {
  let base: string;
  const clock = new ManualClock(Date.UTC(2026, 7, 3, 8, 0, 0));

  const station = stationForSuite({ TRUST_PROXY: '127.0.0.1' }, { clock, fakeEngine: true });
  beforeAll(async () => {
    base = await listen(station);
  });

  const login = (email: string, password: string, from = clientAddress()) => post(base, '/v1/auth/login', { email, password }, forwardedFor(from));

  function expectThrottled(answer: HttpAnswer): number {
    expect(answer.status).toBe(429);
    expect(answer.body.error).toMatchObject({ code: 'PLATFORM_RATE_LIMITED' });
    const retryAfter = answer.body.error!.retry_after as number;
    expect(retryAfter).toBeGreaterThan(0);
    expect(Number(answer.headers.get('retry-after'))).toBe(retryAfter);
    return retryAfter;
  }

  it('refuses an e-mail for a growing time after 5 failures, from any address, and says when to retry', async () => {
    const { email } = await listenerAccount();
    for (let i = 0; i < 5; i++) expect((await login(email, 'wrong password')).status).toBe(401);
    const firstWait = expectThrottled(await login(email, 'wrong password'));
    // While refused, even the right password is not looked at.
    expectThrottled(await login(email, PASSWORD));

    clock.advance(firstWait * 1000);
    expect((await login(email, 'wrong password')).status).toBe(401);
    const secondWait = expectThrottled(await login(email, 'wrong password'));
    expect(secondWait).toBeGreaterThan(firstWait);

    clock.advance(secondWait * 1000);
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it('caps the wait, so an attacker cannot lock an account away for long', async () => {
    const { email } = await listenerAccount();
    // The attacker waits out every refusal and fails again at once.
    const waits: number[] = [];
    for (let round = 0; round < 24; round++) {
      const answer = await login(email, 'wrong password');
      if (answer.status === 429) {
        waits.push(expectThrottled(answer));
        clock.advance(waits.at(-1)! * 1000);
      }
    }
    expect(waits.length).toBeGreaterThan(6);
    expect(waits[1]).toBeGreaterThan(waits[0]);
    expect(waits.at(-1)).toBe(waits.at(-2));
    expect(Math.max(...waits)).toBeLessThanOrEqual(15 * 60);
  });

  it('answers an unknown e-mail exactly like a known one, before and after the throttle', async () => {
    const { email: known } = await listenerAccount();
    const unknown = `nobody-${known}`;
    for (let i = 0; i < 6; i++) {
      const [a, b] = [await login(known, 'wrong password'), await login(unknown, 'wrong password')];
      expect(a.status).toBe(b.status);
      expect(errorWithoutRequestId(a.body)).toEqual(errorWithoutRequestId(b.body));
    }
    expect((await login(unknown, 'wrong password')).status).toBe(429);
  });

  it('counts per lower-cased e-mail', async () => {
    const { email } = await listenerAccount();
    for (let i = 0; i < 5; i++) await login(i % 2 ? email.toUpperCase() : email, 'wrong password');
    expectThrottled(
      await login(
        email.replace(/^./, (c) => c.toUpperCase()),
        PASSWORD,
      ),
    );
  });

  it('forgets the failures after a successful login', async () => {
    const { email } = await listenerAccount();
    for (let i = 0; i < 4; i++) expect((await login(email, 'wrong password')).status).toBe(401);
    expect((await login(email, PASSWORD)).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await login(email, 'wrong password')).status).toBe(401);
    expect((await login(email, PASSWORD)).status).toBe(200);
  });

  it('keeps the account open from an address its owner logged in from', async () => {
    const { email } = await listenerAccount();
    const home = clientAddress();
    expect((await login(email, PASSWORD, home)).status).toBe(200);
    for (let i = 0; i < 8; i++) await login(email, 'wrong password');
    expectThrottled(await login(email, PASSWORD));
    expect((await login(email, PASSWORD, home)).status).toBe(200);
  });

  it('throttles the staff login and the platform login on one count', async () => {
    const staff = (password: string) =>
      post(base, '/api/auth/admin/login', { email: ADMIN.email, password, totp_code: '000000' }, forwardedFor(clientAddress()));
    for (let i = 0; i < 3; i++) expect((await staff('wrong password')).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await login(ADMIN.email, 'wrong password')).status).toBe(401);
    const refused = await staff('wrong password');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ code: 'STATION_RATE_LIMITED' });
    clock.advance(16 * 60_000);
  });

  async function listenerAccount() {
    const email = `throttle-${Math.random().toString(36).slice(2, 10)}@example.com`;
    await signupListener(station, email);
    return { email };
  }
});

/**
 * One station for the two blocks below: the 2FA block's attempts are all on the bootstrap admin, the signup
 * block's on a listener of its own, and it counts hashes from its own start. (The first block keeps a station
 * of its own: its last test leaves failures on the bootstrap admin.)
 */
const hashes: string[] = [];
const counting: PasswordHasher = {
  hash: async (password) => {
    hashes.push(password);
    return hashPassword(password);
  },
  verify: verifyPassword,
};
const sharedClock = new ManualClock(Date.UTC(2026, 7, 3, 9, 0, 0));
const shared = stationForSuite({ TRUST_PROXY: '127.0.0.1' }, { clock: sharedClock, passwords: counting, fakeEngine: true });

describe('the temp_token of the 2FA step', () => {
  let base: string;
  const clock = sharedClock;
  const station = shared;
  beforeAll(async () => {
    base = await listen(station);
  });

  const from = () => forwardedFor(clientAddress());
  const wrongCode = () => (totpCode(ADMIN.totpSecret, clock.now()) === '000000' ? '111111' : '000000');

  async function tempToken(): Promise<string> {
    const answer = await post(base, '/v1/auth/login', { email: ADMIN.email, password: ADMIN.password }, from());
    expect(answer.body.requires_2fa).toBe(true);
    return answer.body.temp_token as string;
  }

  it('accepts the right code after 4 wrong ones', async () => {
    const token = await tempToken();
    for (let i = 0; i < 4; i++) expect((await post(base, '/v1/auth/2fa/verify', { temp_token: token, code: wrongCode() }, from())).status).toBe(401);
    const verified = await post(base, '/v1/auth/2fa/verify', { temp_token: token, code: totpCode(ADMIN.totpSecret, clock.now()) }, from());
    expect(verified.status).toBe(200);
  });

  it('is dead after 5 wrong codes, even for the right code, whichever address sends them', async () => {
    clock.advance(60_000);
    const token = await tempToken();
    for (let i = 0; i < 5; i++) expect((await post(base, '/v1/auth/2fa/verify', { temp_token: token, code: wrongCode() }, from())).status).toBe(401);
    // Five wrong codes also count against the account: wait out that lock (the token lives 5 minutes).
    clock.advance(31_000);
    const late = await post(base, '/v1/auth/2fa/verify', { temp_token: token, code: totpCode(ADMIN.totpSecret, clock.now()) }, from());
    expect(late.status).toBe(401);
    expect(late.body.error).toMatchObject({ code: 'PLATFORM_INVALID_CREDENTIALS' });
  });

  it('works once: a completed temp_token does not open a second session', async () => {
    clock.advance(15 * 60_000); // past any lock the wrong codes above caused
    const token = await tempToken();
    const first = await post(base, '/v1/auth/2fa/verify', { temp_token: token, code: totpCode(ADMIN.totpSecret, clock.now()) }, from());
    expect(first.status).toBe(200);
    clock.advance(30_000);
    const again = await post(base, '/v1/auth/2fa/verify', { temp_token: token, code: totpCode(ADMIN.totpSecret, clock.now()) }, from());
    expect(again.status).toBe(401);
  });
});

describe('signup', () => {
  const station = shared;

  it('runs argon2 only for an address that is free: a taken e-mail is refused before any hashing', async () => {
    const email = `taken-${Date.now()}@example.com`;
    const before = hashes.length; // the bootstrap admin was hashed at start
    await signupListener(station, email);
    expect(hashes).toHaveLength(before + 1);
    const again = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      payload: { email: email.toUpperCase(), password: 'another-password', display_name: 'Again' },
    });
    expect(again.statusCode).toBe(409);
    expect(hashes).toHaveLength(before + 1);
  });
});
