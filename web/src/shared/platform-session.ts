/**
 * A platform login (POST /v1/auth/signup, /login, /2fa/verify) for the pages beside the listener's: the artist
 * studio and the developer portal. Same rules as the listener page (web/src/listener/session.ts): the access
 * token in memory only, renewed through the HttpOnly refresh cookie (Path=/v1/auth/refresh, same origin, so a
 * login made on any of the pages carries over to the others on reload). localStorage keeps only whether someone
 * is signed in, so a visitor who never logged in is not sent through a refresh that cannot succeed.
 */
import { Api } from './api';
import { Session, type Login } from './session';

export interface PlatformUser {
  id: string;
  email: string;
  role: string;
  display_name?: string;
}

/** What signup, login and 2fa/verify answer (contract.md, "Platform auth bodies"). */
export interface SessionAnswer {
  token: string;
  refresh_token?: string;
  role?: string;
  csrf_token: string;
  expires_in: number;
  user: PlatformUser;
}

const SIGNED_IN_KEY = 'station.platform.signed-in';
/** The listener page's flag: a login made there is one here too (the cookie is shared). */
const LISTENER_SIGNED_IN_KEY = 'station.listener.signed-in';

export function toLogin(answer: SessionAnswer): Login<PlatformUser> {
  return { token: answer.token, csrf: answer.csrf_token, expiresIn: answer.expires_in, user: answer.user };
}

function storage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null; // storage disabled: the login lasts as long as the page
  }
}

function signedInHere(): boolean {
  const store = storage();
  return store?.getItem(SIGNED_IN_KEY) === '1' || store?.getItem(LISTENER_SIGNED_IN_KEY) === '1';
}

async function renew(login: Login<PlatformUser> | null): Promise<Login<PlatformUser> | null> {
  if (!login && !signedInHere()) return null;
  const response = await fetch('/v1/auth/refresh', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: '{}',
  });
  // 5xx and 429: the server is there but cannot answer now; try again rather than log out.
  if (response.status >= 500 || response.status === 429) throw new Error(`refresh answered ${response.status}`);
  if (!response.ok) return null;
  return toLogin((await response.json()) as SessionAnswer);
}

export const session = new Session<PlatformUser>(renew);
export const api = new Api(session);

session.subscribe(() => {
  const store = storage();
  if (session.user()) store?.setItem(SIGNED_IN_KEY, '1');
  else store?.removeItem(SIGNED_IN_KEY);
});

/** Ends the login on the server (the refresh token is revoked) and here. */
export async function logout(): Promise<void> {
  await api.post('/v1/auth/revoke', {}).catch(() => undefined);
  storage()?.removeItem(LISTENER_SIGNED_IN_KEY);
  session.set(null);
}
