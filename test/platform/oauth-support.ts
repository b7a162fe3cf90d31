/** Helpers of the OAuth suites: app registration, the user's consent through the API, form posts to the token endpoint. */
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Station } from '../../src/app.js';
import { bearer, type Login } from './accounts-support.js';

export const REDIRECT_URI = 'http://127.0.0.1:8765/callback';

export interface RegisteredApp {
  id: string;
  client_id: string;
  client_secret: string | null;
  scopes: string[];
  redirect_uris: string[];
}

export async function registerApp(
  station: Station,
  developer: Login,
  body: { scopes: string[]; type?: 'confidential' | 'public'; redirect_uris?: string[]; name?: string },
): Promise<RegisteredApp> {
  const answer = await station.http.inject({
    method: 'POST',
    url: '/v1/developer/apps',
    headers: bearer(developer),
    payload: {
      name: body.name ?? 'Mixtape Maker',
      redirect_uris: body.redirect_uris ?? [REDIRECT_URI],
      scopes: body.scopes,
      ...(body.type ? { type: body.type } : {}),
    },
  });
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json();
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizationRequest {
  response_type: string;
  client_id: string;
  redirect_uri: string;
  scope: string;
  state: string;
  code_challenge: string;
  code_challenge_method: string;
}

export function authorizationRequest(app: { client_id: string }, challenge: string, extra: Partial<AuthorizationRequest> = {}): AuthorizationRequest {
  return {
    response_type: 'code',
    client_id: app.client_id,
    redirect_uri: REDIRECT_URI,
    scope: 'tracks:read users:read',
    state: randomBytes(8).toString('hex'),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  };
}

/** The user's approval through POST /v1/oauth/authorize; answers the redirect URL. */
export async function approve(station: Station, user: Login, request: Partial<AuthorizationRequest>, decision: 'approve' | 'deny' = 'approve'): Promise<URL> {
  const answer = await station.http.inject({ method: 'POST', url: '/v1/oauth/authorize', headers: bearer(user), payload: { ...request, decision } });
  expect(answer.statusCode, answer.body).toBe(200);
  return new URL(answer.json().redirect_to);
}

/** Approves and returns the code and its verifier. */
export async function codeFor(station: Station, user: Login, app: { client_id: string }, extra: Partial<AuthorizationRequest> = {}) {
  const { verifier, challenge } = pkce();
  const request = authorizationRequest(app, challenge, extra);
  const redirect = await approve(station, user, request);
  const code = redirect.searchParams.get('code');
  expect(code, redirect.toString()).toBeTruthy();
  return { code: code!, verifier, request };
}

/** A form-urlencoded POST to the token endpoint, with HTTP Basic when `basic` is given. */
export function tokenRequest(station: Station, params: Record<string, string>, basic?: { id: string; secret: string }) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (basic) headers.authorization = `Basic ${Buffer.from(`${encodeURIComponent(basic.id)}:${encodeURIComponent(basic.secret)}`).toString('base64')}`;
  return station.http.inject({ method: 'POST', url: '/v1/oauth/token', headers, payload: new URLSearchParams(params).toString() });
}

/** Redeems a code with the app's credentials (Basic for a confidential app, client_id for a public one). */
export function redeem(station: Station, app: RegisteredApp, code: string, verifier: string, extra: Record<string, string> = {}) {
  const params = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, code_verifier: verifier, ...extra };
  return app.client_secret
    ? tokenRequest(station, params, { id: app.client_id, secret: app.client_secret })
    : tokenRequest(station, { ...params, client_id: app.client_id });
}

export const appBearer = (tokens: { access_token: string; csrf_token: string }) => ({
  authorization: `Bearer ${tokens.access_token}`,
  'x-csrf-token': tokens.csrf_token,
});
