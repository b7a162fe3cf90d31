/**
 * The listener's login. The access token lives in memory only; the refresh token is the HttpOnly cookie
 * (platform_refresh_token, SameSite=Strict, Path=/v1/auth/refresh) that sign-up and login set and that
 * POST /v1/auth/refresh rotates: the page never holds it (security issue #16, item 13). A reload restores
 * the login through that cookie. What localStorage keeps is only whether someone is signed in (not a
 * secret), so a visitor who never logged in is not sent through a refresh that cannot succeed.
 */
import { Api } from '../shared/api';
import { Session, type Login } from '../shared/session';
import type { ListenerUser, SessionAnswer } from './types';

const SIGNED_IN_KEY = 'station.listener.signed-in';
/** Where an earlier version kept the whole login, refresh token included; read once, then deleted. */
const LEGACY_LOGIN_KEY = 'station.listener.login';

export function toLogin(answer: Omit<SessionAnswer, 'refresh_token'>): Login<ListenerUser> {
  return { token: answer.token, csrf: answer.csrf_token, expiresIn: answer.expires_in, user: answer.user };
}

function storage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null; // storage disabled: the login lasts as long as the page
  }
}

/** The refresh token an earlier version left in localStorage, removed as it is read (it moves into the cookie). */
function takeLegacyRefreshToken(): string | null {
  const store = storage();
  const saved = store?.getItem(LEGACY_LOGIN_KEY) ?? null;
  if (saved === null) return null;
  store?.removeItem(LEGACY_LOGIN_KEY);
  try {
    const token = (JSON.parse(saved) as { refreshToken?: unknown }).refreshToken;
    return typeof token === 'string' ? token : null;
  } catch {
    return null;
  }
}

async function renew(login: Login<ListenerUser> | null): Promise<Login<ListenerUser> | null> {
  const legacy = takeLegacyRefreshToken();
  if (!login && !legacy && storage()?.getItem(SIGNED_IN_KEY) !== '1') return null;
  // The cookie goes by itself (same origin); a legacy token goes once in the body, and the answer sets the cookie.
  const response = await fetch('/v1/auth/refresh', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(legacy ? { refresh_token: legacy } : {}),
  });
  // 5xx and 429: the server is there but cannot answer now; try again rather than log out.
  if (response.status >= 500 || response.status === 429) throw new Error(`refresh answered ${response.status}`);
  if (!response.ok) return null;
  return toLogin((await response.json()) as SessionAnswer);
}

export const session = new Session<ListenerUser>(renew);
export const api = new Api(session);

session.subscribe(() => {
  const store = storage();
  if (session.user()) store?.setItem(SIGNED_IN_KEY, '1');
  else store?.removeItem(SIGNED_IN_KEY);
});
