/**
 * POST /v1/auth/google against a real OpenID Provider (oidc-provider on 127.0.0.1): the test plays the
 * browser (authorization request with PKCE S256, the provider's interaction, the redirect back), then
 * posts the code to the station, which redeems it with openid-client and verifies the ID token.
 */
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { mailOutbox } from '../../src/infra/db/schema/index.js';
import { buildTestStation, type TestStation } from '../helpers/station.js';
import { clientAddress } from '../auth/support.js';

const CLIENT = { client_id: 'station-web', client_secret: 'a-client-secret-for-the-tests-0123456789' };
const REDIRECT_URI = 'http://app.test/auth/callback';

interface Account {
  email: string;
  email_verified: boolean;
  name: string;
}

describe('sign-in with an OpenID Connect provider', () => {
  let server: Server;
  let issuer: string;
  let station: TestStation;
  const accounts = new Map<string, Account>();
  /** Who the provider's interaction signs in next (the test's "user at the provider"). */
  let signingIn = '';

  beforeAll(async () => {
    server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const provider = new Provider(issuer, {
      clients: [{ ...CLIENT, redirect_uris: [REDIRECT_URI], grant_types: ['authorization_code'], response_types: ['code'] }],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      findAccount: (_ctx: unknown, id: string) => ({ accountId: id, claims: () => ({ sub: id, ...accounts.get(id) }) }),
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      cookies: { keys: ['cookie-key-for-the-tests'] },
      jwks: { keys: [{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
    });
    const callback = provider.callback();
    server.on('request', async (req, res) => {
      if (!req.url?.startsWith('/interaction/')) return callback(req, res);
      try {
        const details = await provider.interactionDetails(req, res);
        const grant = new provider.Grant({ accountId: signingIn, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { login: { accountId: signingIn }, consent: { grantId } }, { mergeWithLastSubmission: false });
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    });
    station = await buildTestStation({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: CLIENT.client_id, OIDC_CLIENT_SECRET: CLIENT.client_secret });
  });
  afterAll(async () => {
    await station?.destroy();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** The browser's part: authorize at the provider as `accountId`, follow redirects, return what reaches the redirect URI. */
  async function authorize(accountId: string, nonce = randomBytes(8).toString('hex')) {
    signingIn = accountId;
    const verifier = randomBytes(32).toString('base64url');
    const state = randomBytes(8).toString('hex');
    let url = new URL('/auth', issuer);
    url.search = new URLSearchParams({
      client_id: CLIENT.client_id,
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: REDIRECT_URI,
      state,
      nonce,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    const cookies = new Map<string, string>();
    for (let hop = 0; hop < 10; hop++) {
      const response = await fetch(url, { redirect: 'manual', headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const at = pair.indexOf('=');
        cookies.set(pair.slice(0, at), pair.slice(at + 1));
      }
      const location = response.headers.get('location');
      if (!location) throw new Error(`the provider answered ${response.status}: ${await response.text()}`);
      if (location.startsWith(REDIRECT_URI)) {
        const back = new URL(location).searchParams;
        expect(back.get('state')).toBe(state);
        return { code: back.get('code')!, state, iss: back.get('iss') ?? undefined, verifier, nonce };
      }
      url = new URL(location, url);
    }
    throw new Error('too many redirects');
  }

  const signIn = (payload: Record<string, unknown>) => station.http.inject({ method: 'POST', url: '/v1/auth/google', remoteAddress: clientAddress(), payload });
  const redeem = (back: Awaited<ReturnType<typeof authorize>>, change: Record<string, unknown> = {}) =>
    signIn({ code: back.code, state: back.state, iss: back.iss, nonce: back.nonce, code_verifier: back.verifier, redirect_uri: REDIRECT_URI, ...change });

  function account(verified = true): { id: string; email: string } {
    const id = `acct-${randomBytes(5).toString('hex')}`;
    const email = `${id}@mail.example`;
    accounts.set(id, { email, email_verified: verified, name: 'Ada Provider' });
    return { id, email };
  }

  it('creates a listener account on the first sign-in and signs the same account in afterwards', async () => {
    const person = account();
    const first = await redeem(await authorize(person.id));
    expect(first.statusCode, first.body).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ created: true, role: 'listener', user: { email: person.email, display_name: 'Ada Provider', role: 'listener' } });
    expect(body.token).toEqual(expect.any(String));
    expect(body.refresh_token).toEqual(expect.any(String));
    const me = await station.http.inject({ url: '/v1/users/me', headers: { authorization: `Bearer ${body.token}` } });
    expect(me.json()).toMatchObject({ id: body.user.id, email: person.email });

    const again = await redeem(await authorize(person.id));
    expect(again.json()).toMatchObject({ created: false, user: { id: body.user.id } });
    // No password works for an account made by the provider.
    const login = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/login',
      remoteAddress: clientAddress(),
      payload: { email: person.email, password: '!no-password' },
    });
    expect(login.statusCode).toBe(401);
  });

  const login = (email: string, password: string) =>
    station.http.inject({ method: 'POST', url: '/v1/auth/login', remoteAddress: clientAddress(), payload: { email, password } });
  const me = (token: string) => station.http.inject({ url: '/v1/users/me', headers: { authorization: `Bearer ${token}` } });
  const refresh = (refreshToken: string) =>
    station.http.inject({ method: 'POST', url: '/v1/auth/refresh', remoteAddress: clientAddress(), payload: { refresh_token: refreshToken } });
  const linkFromSession = (session: { token: string; csrf_token: string }, back: Awaited<ReturnType<typeof authorize>>) =>
    station.http.inject({
      method: 'POST',
      url: '/v1/users/me/identities',
      remoteAddress: clientAddress(),
      headers: { authorization: `Bearer ${session.token}`, 'x-csrf-token': session.csrf_token },
      payload: { code: back.code, state: back.state, iss: back.iss, nonce: back.nonce, code_verifier: back.verifier, redirect_uri: REDIRECT_URI },
    });

  it('records the address of a created account as verified only when the provider verified it', async () => {
    const verified = account(true);
    const first = (await redeem(await authorize(verified.id))).json();
    expect((await me(first.token)).json()).toMatchObject({ email: verified.email, email_verified: true });

    const unverified = account(false);
    const other = (await redeem(await authorize(unverified.id))).json();
    expect(other).toMatchObject({ created: true });
    expect((await me(other.token)).json()).toMatchObject({ email: unverified.email, email_verified: false });
    await station.auth.drain();
    const mails = await station.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, unverified.email));
    expect(mails.map((mail) => mail.subject)).toEqual(['Confirm your e-mail address']);
  });

  it('links an existing account whose address is verified, when the provider verified it too, and ends its other sessions', async () => {
    const verified = account(true);
    const existing = await station.auth.createUser({ email: verified.email, password: 'existing-password', role: 'artist', displayName: 'Existing' });
    const before = (await login(verified.email, 'existing-password')).json();
    expect((await me(before.token)).statusCode).toBe(200);

    const linked = await redeem(await authorize(verified.id));
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({ created: false, role: 'artist', user: { id: existing.id } });
    // Whoever held a session before the link is out; the new session works.
    expect((await me(before.token)).statusCode).toBe(401);
    expect((await refresh(before.refresh_token)).statusCode).toBe(401);
    expect((await me(linked.json().token)).statusCode).toBe(200);

    const unverifiedClaim = account(false);
    await station.auth.createUser({ email: unverifiedClaim.email, password: 'existing-password', role: 'listener', displayName: 'Other' });
    const refused = await redeem(await authorize(unverifiedClaim.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('PLATFORM_CONFLICT');
  });

  it('refuses with 409 to link an account whose address nobody verified (a squatter keeps no foothold); its owner links from a session', async () => {
    const victim = account(true);
    // Someone signed up with the victim's address and never proved it.
    const squat = await station.http.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      remoteAddress: clientAddress(),
      payload: { email: victim.email, password: 'squatter-password', display_name: 'Squatter' },
    });
    expect(squat.statusCode).toBe(201);
    const refused = await redeem(await authorize(victim.id));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'PLATFORM_CONFLICT' });
    expect(refused.json().error.detail).toContain('/v1/users/me/identities');
    // Nothing was linked: the provider still cannot sign in to that account, and the account's session is untouched.
    expect((await redeem(await authorize(victim.id))).statusCode).toBe(409);
    expect((await me(squat.json().token)).statusCode).toBe(200);

    // The account's holder links the identity from a logged-in session: the other sessions end, this one stays.
    const other = (await login(victim.email, 'squatter-password')).json();
    const session = (await login(victim.email, 'squatter-password')).json();
    const linked = await linkFromSession(session, await authorize(victim.id));
    expect(linked.statusCode, linked.body).toBe(200);
    // The provider verified this very address: the account's address counts as verified now.
    expect(linked.json()).toEqual({ issuer, email_verified: true });
    expect((await me(session.token)).json()).toMatchObject({ email_verified: true });
    for (const ended of [squat.json(), other]) {
      expect((await me(ended.token)).statusCode).toBe(401);
      expect((await refresh(ended.refresh_token)).statusCode).toBe(401);
    }
    const signedIn = await redeem(await authorize(victim.id));
    expect(signedIn.json()).toMatchObject({ created: false, user: { id: squat.json().user.id } });

    // Linking again changes nothing; an identity linked elsewhere cannot be taken.
    expect((await linkFromSession(session, await authorize(victim.id))).statusCode).toBe(200);
    expect((await me(signedIn.json().token)).statusCode).toBe(200);
    const someoneElse = (await redeem(await authorize(account(true).id))).json();
    const taken = await linkFromSession(someoneElse, await authorize(victim.id));
    expect(taken.statusCode).toBe(409);
  });

  it('links from a login session only', async () => {
    const back = await authorize(account(true).id);
    const anonymous = await station.http.inject({
      method: 'POST',
      url: '/v1/users/me/identities',
      remoteAddress: clientAddress(),
      payload: { code: back.code, state: back.state, iss: back.iss, nonce: back.nonce, code_verifier: back.verifier, redirect_uri: REDIRECT_URI },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a wrong PKCE verifier, a replayed code, a wrong nonce and a banned account', async () => {
    const person = account();
    const wrongVerifier = await redeem(await authorize(person.id), { code_verifier: randomBytes(32).toString('base64url') });
    expect(wrongVerifier.statusCode).toBe(401);
    expect(wrongVerifier.json().error.code).toBe('PLATFORM_INVALID_CREDENTIALS');

    const back = await authorize(person.id);
    expect((await redeem(back)).statusCode).toBe(200);
    expect((await redeem(back)).statusCode).toBe(401);

    expect((await redeem(await authorize(person.id), { nonce: 'not-the-nonce' })).statusCode).toBe(401);

    const banned = account();
    const signedIn = (await redeem(await authorize(banned.id))).json();
    await station.auth.setUserStatus(signedIn.user.id, 'banned');
    const refused = await redeem(await authorize(banned.id));
    expect(refused.statusCode).toBe(401);
  });

  it('answers 503 when no provider is configured', async () => {
    const plain = await buildTestStation();
    try {
      const answer = await plain.http.inject({
        method: 'POST',
        url: '/v1/auth/google',
        remoteAddress: clientAddress(),
        payload: { code: 'x', code_verifier: randomBytes(32).toString('base64url'), redirect_uri: REDIRECT_URI },
      });
      expect(answer.statusCode).toBe(503);
      expect(answer.json().error.code).toBe('PLATFORM_IDENTITY_PROVIDER_NOT_CONFIGURED');
    } finally {
      await plain.destroy();
    }
  });
});
