/**
 * OAuth 2.0 authorization code with PKCE, end to end with a real client library: openid-client 6 discovers
 * the server from its RFC 8414 metadata over a real socket, builds the authorization request, and redeems
 * the code and refresh tokens at the token endpoint (client_secret_basic for a confidential app, none for a
 * public one). The test plays the user's web client in between (consent through the bearer API).
 */
import * as client from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { stationForSuite } from '../helpers/station.js';
import { bearer, loginAs, type Login } from './accounts-support.js';
import { REDIRECT_URI, appBearer, registerApp, type RegisteredApp } from './oauth-support.js';

const ISSUER = 'http://station.test';
let base: string;
let developer: Login;
let confidential: RegisteredApp;
let publicApp: RegisteredApp;

/** openid-client reaches the server at ISSUER (PUBLIC_BASE_URL) through the real socket the test listens on. */
const options = {
  execute: [client.allowInsecureRequests],
  [client.customFetch]: (url: string, init: RequestInit) => fetch(url.replace(ISSUER, base), init),
};

function configure(config: client.Configuration): client.Configuration {
  config[client.customFetch] = options[client.customFetch] as never;
  return config;
}

const station = stationForSuite();
beforeAll(async () => {
  base = await station.http.listen({ port: 0, host: '127.0.0.1' });
  developer = await loginAs(station, 'developer');
  confidential = await registerApp(station, developer, { scopes: ['tracks:read', 'users:read', 'artist', 'streams:read'] });
  publicApp = await registerApp(station, developer, { scopes: ['tracks:read', 'users:read'], type: 'public', name: 'Pocket Player' });
});

async function discover(app: RegisteredApp): Promise<client.Configuration> {
  const auth = app.client_secret ? client.ClientSecretBasic(app.client_secret) : client.None();
  return configure(
    await client.discovery(new URL(ISSUER), app.client_id, undefined, auth, { ...options, algorithm: 'oauth2' } as client.DiscoveryRequestOptions),
  );
}

/** The browser's part: the user's web client reads the request with the user's token, then approves it. */
async function consent(user: Login, authorizationUrl: URL) {
  expect(`${authorizationUrl.origin}${authorizationUrl.pathname}`).toBe(`${ISSUER}/v1/oauth/authorize`);
  const read = await fetch(`${base}${authorizationUrl.pathname}${authorizationUrl.search}`, { headers: bearer(user) });
  expect(read.status).toBe(200);
  const request = (await read.json()) as { type: string; scopes: { name: string; grantable: boolean }[] };
  const decided = await fetch(`${base}/v1/oauth/authorize`, {
    method: 'POST',
    headers: { ...bearer(user), 'content-type': 'application/json' },
    body: JSON.stringify({ ...Object.fromEntries(authorizationUrl.searchParams), decision: 'approve' }),
  });
  expect(decided.status).toBe(200);
  return { request, redirect: new URL(((await decided.json()) as { redirect_to: string }).redirect_to) };
}

async function authorizationCodeFlow(app: RegisteredApp, user: Login, scope: string) {
  const config = await discover(app);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope,
    state,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const { request, redirect } = await consent(user, url);
  const tokens = await client.authorizationCodeGrant(config, redirect, { pkceCodeVerifier: verifier, expectedState: state });
  return { config, request, redirect, tokens: tokens as typeof tokens & { csrf_token: string; refresh_token: string } };
}

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, tokens: { access_token: string; csrf_token: string }, payload?: object) =>
  station.http.inject({ method, url, headers: appBearer(tokens), ...(payload ? { payload } : {}) });

describe('server metadata (RFC 8414)', () => {
  it('advertises the endpoints, S256 only and the iss parameter', async () => {
    const config = await discover(confidential);
    expect(config.serverMetadata()).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/v1/oauth/authorize`,
      token_endpoint: `${ISSUER}/v1/oauth/token`,
      code_challenge_methods_supported: ['S256'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(config.serverMetadata().scopes_supported).not.toContain('platform:admin');
  });
});

describe('authorization code with PKCE through openid-client', () => {
  it('a confidential app acts for a listener with the approved scopes the listener holds, and no more', async () => {
    const listener = await loginAs(station, 'listener');
    const { request, redirect, tokens } = await authorizationCodeFlow(confidential, listener, 'tracks:read users:read artist');
    expect(redirect.searchParams.get('iss')).toBe(ISSUER);
    // A listener holds no artist scope: the consent says so and the token leaves it out.
    expect(request.scopes.find((s) => s.name === 'artist')).toMatchObject({ grantable: false });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('tracks:read users:read');
    expect(tokens.expires_in).toBe(900);

    const me = await call('GET', '/v1/users/me', tokens);
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toMatchObject({ id: listener.userId, credential: { type: 'oauth', scopes: ['tracks:read', 'users:read'] } });
    expect((await call('GET', '/v1/store/products', tokens)).statusCode).toBe(200);
    // streams:read is the listener's, and registered for the app, but was not asked for.
    const stream = await call('GET', '/v1/tracks/any/stream', tokens);
    expect(stream.statusCode).toBe(403);
    expect(stream.json().error.code).toBe('PLATFORM_INSUFFICIENT_SCOPE');
    // What no scope grants an app: the user's own account actions.
    for (const [method, url, payload] of [
      ['PATCH', '/v1/users/me', { display_name: 'hijacked' }],
      ['POST', '/v1/developer/keys', { name: 'k', scopes: ['tracks:read'], environment: 'live' }],
      ['GET', '/v1/users/me/apps', undefined],
      ['GET', `/v1/oauth/authorize?client_id=${confidential.client_id}`, undefined],
    ] as const) {
      const answer = await call(method, url, tokens, payload);
      expect(answer.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('an artist’s approval carries the artist scope', async () => {
    const artist = await loginAs(station, 'artist');
    const { tokens } = await authorizationCodeFlow(confidential, artist, 'artist tracks:read');
    expect(tokens.scope).toBe('artist tracks:read');
    expect((await call('GET', '/v1/payouts', tokens)).statusCode).toBe(200);
  });

  it('rotates refresh tokens; a spent one revokes the access', async () => {
    const listener = await loginAs(station, 'listener');
    const { config, tokens } = await authorizationCodeFlow(confidential, listener, 'users:read');
    const renewed = await client.refreshTokenGrant(config, tokens.refresh_token);
    expect(renewed.refresh_token).not.toBe(tokens.refresh_token);
    expect(renewed.scope).toBe('users:read');
    expect((await call('GET', '/v1/users/me', renewed as never)).statusCode).toBe(200);

    const replay = await client.refreshTokenGrant(config, tokens.refresh_token).catch((error: unknown) => error);
    expect(replay).toBeInstanceOf(client.ResponseBodyError);
    expect((replay as client.ResponseBodyError).error).toBe('invalid_grant');
    expect((await call('GET', '/v1/users/me', renewed as never)).statusCode).toBe(401);
    const after = await client.refreshTokenGrant(config, renewed.refresh_token!).catch((error: unknown) => error);
    expect((after as client.ResponseBodyError).error).toBe('invalid_grant');
  });

  it('a public app uses PKCE alone (no secret)', async () => {
    const listener = await loginAs(station, 'listener');
    const { config, tokens } = await authorizationCodeFlow(publicApp, listener, 'tracks:read');
    expect(tokens.scope).toBe('tracks:read');
    const renewed = await client.refreshTokenGrant(config, tokens.refresh_token);
    expect((await call('GET', '/v1/store/products', renewed as never)).statusCode).toBe(200);
  });
});

describe('the access ends', () => {
  it('when the user revokes the app: GET/DELETE /v1/users/me/apps', async () => {
    const listener = await loginAs(station, 'listener');
    const { config, tokens } = await authorizationCodeFlow(confidential, listener, 'users:read tracks:read');
    const list = await station.http.inject({ method: 'GET', url: '/v1/users/me/apps', headers: bearer(listener) });
    expect(list.json()).toMatchObject({ total: 1, data: [{ id: confidential.client_id, name: 'Mixtape Maker', scopes: ['tracks:read', 'users:read'] }] });

    const other = await loginAs(station, 'listener');
    expect((await station.http.inject({ method: 'DELETE', url: `/v1/users/me/apps/${confidential.client_id}`, headers: bearer(other) })).statusCode).toBe(404);
    expect((await call('GET', '/v1/users/me', tokens)).statusCode).toBe(200);

    expect((await station.http.inject({ method: 'DELETE', url: `/v1/users/me/apps/${confidential.client_id}`, headers: bearer(listener) })).statusCode).toBe(
      204,
    );
    expect((await call('GET', '/v1/users/me', tokens)).statusCode).toBe(401);
    const refresh = await client.refreshTokenGrant(config, tokens.refresh_token).catch((error: unknown) => error);
    expect((refresh as client.ResponseBodyError).error).toBe('invalid_grant');
    expect((await station.http.inject({ method: 'GET', url: '/v1/users/me/apps', headers: bearer(listener) })).json().total).toBe(0);
  });

  it('when the user is banned', async () => {
    const listener = await loginAs(station, 'listener');
    const { config, tokens } = await authorizationCodeFlow(publicApp, listener, 'users:read');
    await station.auth.setUserStatus(listener.userId, 'banned');
    expect((await call('GET', '/v1/users/me', tokens)).statusCode).toBe(401);
    const refresh = await client.refreshTokenGrant(config, tokens.refresh_token).catch((error: unknown) => error);
    expect((refresh as client.ResponseBodyError).error).toBe('invalid_grant');
  });

  it('when the developer deletes the app (another developer cannot)', async () => {
    const app = await registerApp(station, developer, { scopes: ['users:read'], name: 'Short-lived' });
    const listener = await loginAs(station, 'listener');
    const { tokens } = await authorizationCodeFlow(app, listener, 'users:read');
    const stranger = await loginAs(station, 'developer');
    expect((await station.http.inject({ method: 'GET', url: `/v1/developer/apps/${app.id}`, headers: bearer(stranger) })).statusCode).toBe(404);
    expect((await station.http.inject({ method: 'DELETE', url: `/v1/developer/apps/${app.id}`, headers: bearer(stranger) })).statusCode).toBe(404);
    expect((await call('GET', '/v1/users/me', tokens)).statusCode).toBe(200);

    expect((await station.http.inject({ method: 'DELETE', url: `/v1/developer/apps/${app.id}`, headers: bearer(developer) })).statusCode).toBe(204);
    expect((await call('GET', '/v1/users/me', tokens)).statusCode).toBe(401);
    expect((await station.http.inject({ method: 'GET', url: '/v1/users/me/apps', headers: bearer(listener) })).json().total).toBe(0);
  });
});
