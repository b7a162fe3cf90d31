/**
 * OAuth 2.0 refusals: app registration rules, the authorization endpoint's two kinds of errors (shown to the
 * user, or sent back to the app in its redirect_uri), PKCE S256 only, and the token endpoint's RFC 6749
 * errors: code replay (which revokes what the code gave), wrong verifier, wrong redirect_uri, expired code,
 * another client's code, bad client credentials, and scope escalation at every step.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/infra/clock/clock.js';
import { stationForSuite } from '../helpers/station.js';
import { expectEnvelope } from '../foundation/support.js';
import { bearer, createKey, loginAs, type Login } from './accounts-support.js';
import {
  REDIRECT_URI,
  appBearer,
  approve,
  authorizationRequest,
  codeFor,
  pkce,
  redeem,
  registerApp,
  tokenRequest,
  type RegisteredApp,
} from './oauth-support.js';

const clock = new ManualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
let developer: Login;
let listener: Login;
let app: RegisteredApp;
let publicApp: RegisteredApp;

const station = stationForSuite({}, { clock });
beforeAll(async () => {
  developer = await loginAs(station, 'developer');
  listener = await loginAs(station, 'listener');
  app = await registerApp(station, developer, { scopes: ['tracks:read', 'users:read', 'streams:read'] });
  publicApp = await registerApp(station, developer, { scopes: ['tracks:read'], type: 'public' });
});

const register = (who: Login, payload: object) => station.http.inject({ method: 'POST', url: '/v1/developer/apps', headers: bearer(who), payload });
const me = (tokens: { access_token: string; csrf_token: string }) => station.http.inject({ method: 'GET', url: '/v1/users/me', headers: appBearer(tokens) });

function expectOAuthError(answer: Awaited<ReturnType<typeof tokenRequest>>, status: number, error: string) {
  expect(answer.statusCode, answer.body).toBe(status);
  expect(answer.json()).toMatchObject({ error });
  expect(typeof answer.json().error_description).toBe('string');
  expect(answer.headers['cache-control']).toBe('no-store');
}

describe('app registration', () => {
  it('answers a confidential app’s secret once, never in lists', async () => {
    expect(app.client_secret).toMatch(/^stn_cs_/);
    const list = await station.http.inject({ method: 'GET', url: '/v1/developer/apps', headers: bearer(developer) });
    expect(list.json().total).toBe(2);
    expect(list.body).not.toContain(app.client_secret!);
    expect(publicApp.client_secret).toBeNull();
  });

  it('refuses redirect URIs that are not https or loopback http, fragments, and ungrantable scopes', async () => {
    for (const uri of ['http://app.example/cb', 'https://app.example/cb#frag', 'ftp://127.0.0.1/cb', 'not a url', 'https://user:pw@app.example/cb']) {
      expectEnvelope(await register(developer, { name: 'x', redirect_uris: [uri], scopes: ['tracks:read'] }), 400, 'PLATFORM_VALIDATION_FAILED');
    }
    for (const uri of ['https://app.example/cb', 'http://localhost:3000/cb', 'http://[::1]/cb']) {
      expect((await register(developer, { name: 'x', redirect_uris: [uri], scopes: ['tracks:read'] })).statusCode, uri).toBe(201);
    }
    for (const scope of ['platform:admin', 'station:admin', 'station:train']) {
      expectEnvelope(await register(developer, { name: 'x', redirect_uris: [REDIRECT_URI], scopes: [scope] }), 400, 'PLATFORM_VALIDATION_FAILED');
    }
  });

  it('is for developer accounts and staff developer and admin login sessions only', async () => {
    expectEnvelope(await register(listener, { name: 'x', redirect_uris: [REDIRECT_URI], scopes: ['tracks:read'] }), 403, 'PLATFORM_FORBIDDEN');
    const key = await createKey(station, developer, { scopes: ['tracks:read'], environment: 'live' });
    const csrf = (await station.http.inject({ method: 'GET', url: '/api/auth/csrf', headers: { 'x-api-key': key.key } })).json().csrf_token;
    const byKey = await station.http.inject({
      method: 'POST',
      url: '/v1/developer/apps',
      headers: { 'x-api-key': key.key, 'x-csrf-token': csrf },
      payload: { name: 'x', redirect_uris: [REDIRECT_URI], scopes: ['tracks:read'] },
    });
    expectEnvelope(byKey, 403, 'PLATFORM_FORBIDDEN');
  });
});

describe('the authorization endpoint', () => {
  const read = (who: Login, query: Record<string, string>) =>
    station.http.inject({ method: 'GET', url: `/v1/oauth/authorize?${new URLSearchParams(query)}`, headers: bearer(who) });

  it('answers the consent request for a valid one', async () => {
    const answer = await read(listener, { ...authorizationRequest(app, pkce().challenge), state: 's-1' });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      type: 'consent',
      client: { id: app.client_id, name: 'Mixtape Maker' },
      redirect_uri: REDIRECT_URI,
      state: 's-1',
      scope: 'tracks:read users:read',
      previously_approved: false,
    });
  });

  it('never redirects to an unknown client’s or an unregistered redirect_uri', async () => {
    const request = authorizationRequest(app, pkce().challenge);
    expectEnvelope(await read(listener, { ...request, client_id: 'unknown' }), 400, 'PLATFORM_OAUTH_INVALID_CLIENT_REQUEST');
    expectEnvelope(await read(listener, { ...request, redirect_uri: 'http://127.0.0.1:8765/callback/other' }), 400, 'PLATFORM_OAUTH_INVALID_CLIENT_REQUEST');
    const { redirect_uri: _omitted, ...noRedirect } = request;
    expectEnvelope(await read(listener, noRedirect), 400, 'PLATFORM_OAUTH_INVALID_CLIENT_REQUEST');
  });

  it('sends the app’s other errors to its redirect_uri with state and iss: PKCE S256 only, code flow only, its own scopes only', async () => {
    const { challenge } = pkce();
    const cases: [Record<string, string | undefined>, string][] = [
      [{ code_challenge_method: 'plain', code_challenge: challenge }, 'invalid_request'],
      [{ code_challenge: undefined }, 'invalid_request'],
      [{ code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge: 'short' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ scope: 'analytics:read' }, 'invalid_scope'],
      [{ scope: 'tracks:read platform:admin' }, 'invalid_scope'],
      [{ scope: '' }, 'invalid_scope'],
    ];
    for (const [change, error] of cases) {
      const query = Object.fromEntries(
        Object.entries({ ...authorizationRequest(app, challenge, { state: 'st' }), ...change }).filter(([, v]) => v !== undefined),
      ) as Record<string, string>;
      const answer = await read(listener, query);
      expect(answer.statusCode, JSON.stringify(change)).toBe(200);
      expect(answer.json().type).toBe('redirect');
      const redirect = new URL(answer.json().redirect_to);
      expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI);
      expect([redirect.searchParams.get('error'), redirect.searchParams.get('state'), redirect.searchParams.get('iss')], JSON.stringify(change)).toEqual([
        error,
        'st',
        'http://station.test',
      ]);
      expect(redirect.searchParams.has('code')).toBe(false);
      // POSTing the same request as an approval issues no code either.
      const decided = await approve(station, listener, query);
      expect(decided.searchParams.get('error')).toBe(error);
    }
  });

  it('denial redirects with error=access_denied', async () => {
    const redirect = await approve(station, listener, authorizationRequest(app, pkce().challenge, { state: 'no' }), 'deny');
    expect(redirect.searchParams.get('error')).toBe('access_denied');
    expect(redirect.searchParams.get('state')).toBe('no');
    expect(redirect.searchParams.has('code')).toBe(false);
  });

  it('needs the user’s login session and CSRF to approve', async () => {
    const request = { ...authorizationRequest(app, pkce().challenge), decision: 'approve' };
    const noCsrf = await station.http.inject({
      method: 'POST',
      url: '/v1/oauth/authorize',
      headers: { authorization: `Bearer ${listener.token}` },
      payload: request,
    });
    expectEnvelope(noCsrf, 403, 'PLATFORM_CSRF_INVALID');
    const anonymous = await station.http.inject({ method: 'POST', url: '/v1/oauth/authorize', payload: request });
    expectEnvelope(anonymous, 401, 'PLATFORM_AUTH_REQUIRED');
  });
});

describe('the token endpoint', () => {
  it('redeems a code once; a replay is refused and revokes the tokens it gave', async () => {
    const { code, verifier } = await codeFor(station, listener, app);
    const first = await redeem(station, app, code, verifier);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    const tokens = first.json();
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'tracks:read users:read' });
    expect((await me(tokens)).statusCode).toBe(200);
    // An app's refresh token is not a login's: the platform refresh refuses it.
    expectEnvelope(
      await station.http.inject({ method: 'POST', url: '/v1/auth/refresh', payload: { refresh_token: tokens.refresh_token } }),
      401,
      'PLATFORM_AUTH_REQUIRED',
    );

    expectOAuthError(await redeem(station, app, code, verifier), 400, 'invalid_grant');
    expect((await me(tokens)).statusCode).toBe(401);
    expectOAuthError(
      await tokenRequest(station, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, { id: app.client_id, secret: app.client_secret! }),
      400,
      'invalid_grant',
    );
  });

  it('refuses a wrong verifier, and the code is spent by the attempt', async () => {
    const { code, verifier } = await codeFor(station, listener, app);
    expectOAuthError(await redeem(station, app, code, pkce().verifier), 400, 'invalid_grant');
    expectOAuthError(await redeem(station, app, code, verifier), 400, 'invalid_grant');
  });

  it('refuses another redirect_uri, an expired code, another client’s code, a missing or malformed verifier', async () => {
    const wrongRedirect = await codeFor(station, listener, app);
    expectOAuthError(
      await redeem(station, app, wrongRedirect.code, wrongRedirect.verifier, { redirect_uri: 'http://127.0.0.1:8765/other' }),
      400,
      'invalid_grant',
    );

    const expired = await codeFor(station, listener, app);
    clock.advance(600_001);
    expectOAuthError(await redeem(station, app, expired.code, expired.verifier), 400, 'invalid_grant');

    const others = await codeFor(station, listener, app, { scope: 'tracks:read' });
    expectOAuthError(await redeem(station, publicApp, others.code, others.verifier), 400, 'invalid_grant');

    const fresh = await codeFor(station, listener, app);
    expectOAuthError(await redeem(station, app, fresh.code, ''), 400, 'invalid_request');
    expectOAuthError(await redeem(station, app, fresh.code, 'tooshort'), 400, 'invalid_request');
    // Those malformed requests did not spend it.
    expect((await redeem(station, app, fresh.code, fresh.verifier)).statusCode).toBe(200);
  });

  it('authenticates clients: wrong or missing secret is 401 invalid_client (with WWW-Authenticate for Basic); a public client sends no secret', async () => {
    const { code, verifier } = await codeFor(station, listener, app);
    const params = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier };
    const wrong = await tokenRequest(station, params, { id: app.client_id, secret: 'stn_cs_wrong' });
    expectOAuthError(wrong, 401, 'invalid_client');
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic /);
    expectOAuthError(await tokenRequest(station, { ...params, client_id: app.client_id }), 401, 'invalid_client');
    expectOAuthError(await tokenRequest(station, { ...params, client_id: 'nobody', client_secret: 'x' }), 401, 'invalid_client');
    expectOAuthError(await tokenRequest(station, { ...params, client_id: publicApp.client_id, client_secret: 'anything' }), 401, 'invalid_client');
    // client_secret_post works too (and the code was not spent by the refusals above: no client, no attempt).
    const post = await tokenRequest(station, { ...params, client_id: app.client_id, client_secret: app.client_secret! });
    expect(post.statusCode, post.body).toBe(200);
  });

  it('answers invalid_request and unsupported_grant_type in RFC 6749’s shape, for forms and JSON', async () => {
    expectOAuthError(await tokenRequest(station, { client_id: publicApp.client_id }), 400, 'invalid_request');
    expectOAuthError(await tokenRequest(station, { grant_type: 'password', client_id: publicApp.client_id }), 400, 'unsupported_grant_type');
    expectOAuthError(await tokenRequest(station, { grant_type: 'client_credentials', client_id: publicApp.client_id }), 400, 'unsupported_grant_type');
    const repeated = await station.http.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=refresh_token&refresh_token=a&refresh_token=b&client_id=${publicApp.client_id}`,
    });
    expectOAuthError(repeated, 400, 'invalid_request');
    const json = await station.http.inject({
      method: 'POST',
      url: '/v1/oauth/token',
      payload: { grant_type: 'refresh_token', refresh_token: 'nope', client_id: publicApp.client_id },
    });
    expectOAuthError(json, 400, 'invalid_grant');
    const wrongType = await station.http.inject({ method: 'POST', url: '/v1/oauth/token', payload: { grant_type: 7 } });
    expectOAuthError(wrongType, 400, 'invalid_request');
  });

  it('never widens scopes: not at approval, not at refresh; a narrower refresh narrows the access', async () => {
    // The approval is checked against the app's scopes whatever the consent screen showed.
    const escalated = await approve(station, listener, authorizationRequest(app, pkce().challenge, { scope: 'tracks:read webhooks:write' }));
    expect(escalated.searchParams.get('error')).toBe('invalid_scope');

    const { code, verifier } = await codeFor(station, listener, app, { scope: 'tracks:read users:read' });
    const tokens = (await redeem(station, app, code, verifier)).json();
    const basic = { id: app.client_id, secret: app.client_secret! };
    expectOAuthError(
      await tokenRequest(station, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, scope: 'tracks:read users:read streams:read' }, basic),
      400,
      'invalid_scope',
    );
    const narrowed = await tokenRequest(station, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, scope: 'users:read' }, basic);
    expect(narrowed.statusCode, narrowed.body).toBe(200);
    expect(narrowed.json().scope).toBe('users:read');
    const meAnswer = await me(narrowed.json());
    expect(meAnswer.json().credential.scopes).toEqual(['users:read']);
    const later = await tokenRequest(station, { grant_type: 'refresh_token', refresh_token: narrowed.json().refresh_token }, basic);
    expect(later.json().scope).toBe('users:read');
    // A login's refresh token is not an app's.
    expectOAuthError(await tokenRequest(station, { grant_type: 'refresh_token', refresh_token: listener.refreshToken }, basic), 400, 'invalid_grant');
  });

  it('a demoted user’s app loses the scopes the new role lacks at once', async () => {
    const artist = await loginAs(station, 'artist');
    const artistApp = await registerApp(station, developer, { scopes: ['artist', 'users:read'] });
    const { code, verifier } = await codeFor(station, artist, artistApp, { scope: 'artist users:read' });
    const tokens = (await redeem(station, artistApp, code, verifier)).json();
    expect(tokens.scope).toBe('artist users:read');
    await station.auth.setUserRole(artist.userId, 'listener');
    expect((await me(tokens)).json().credential.scopes).toEqual(['users:read']);
  });
});
