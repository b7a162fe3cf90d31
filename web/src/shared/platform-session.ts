/**
 * A platform login (POST /v1/auth/signup, /login, /2fa/verify), as the listener page, the artist studio and the
 * developer portal hold it: the access token in memory only, renewed through the HttpOnly refresh cookie
 * (platform_refresh_token, SameSite=Strict, Path=/v1/auth/refresh, rotated by every refresh; security issue #16,
 * item 13), so no script ever holds a refresh token. The cookie is the same origin's for every page, so a login
 * made on one of them carries over to the others on reload. localStorage keeps only whether someone is signed in
 * (not a secret), so a visitor who never logged in is not sent through a refresh that cannot succeed.
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
export interface SessionAnswer<U = PlatformUser> {
  token: string;
  /** Sent to API clients; the pages ignore it and renew with the HttpOnly cookie set beside it. */
  refresh_token?: string;
  role?: string;
  csrf_token: string;
  expires_in: number;
  user: U;
}

export function toLogin<U>(answer: Omit<SessionAnswer<U>, 'refresh_token'>): Login<U> {
  return { token: answer.token, csrf: answer.csrf_token, expiresIn: answer.expires_in, user: answer.user };
}

function storage(): Storage | null {
  try {
    return localStorage;
  } catch {
    return null; // storage disabled: the login lasts as long as the page
  }
}

export interface PlatformSessionOptions {
  /** The localStorage flag this page sets while someone is signed in. */
  signedInKey: string;
  /** Other pages' flags that also mean a login cookie is there to renew. */
  alsoSignedInKeys?: string[];
  /** A refresh token an earlier version of the page left in storage: sent once in the body, then forgotten. */
  takeLegacyRefreshToken?: () => string | null;
}

export interface PlatformSession<U> {
  session: Session<U>;
  api: Api;
  /** Ends the login on the server (the refresh token is revoked) and on every page's flag. */
  logout(): Promise<void>;
}

/** One page's login on the shared refresh cookie. */
export function platformSession<U>(options: PlatformSessionOptions): PlatformSession<U> {
  const flags = [options.signedInKey, ...(options.alsoSignedInKeys ?? [])];
  const signedInHere = () => flags.some((key) => storage()?.getItem(key) === '1');

  const renew = async (login: Login<U> | null): Promise<Login<U> | null> => {
    const legacy = options.takeLegacyRefreshToken?.() ?? null;
    if (!login && !legacy && !signedInHere()) return null;
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
    return toLogin((await response.json()) as SessionAnswer<U>);
  };

  const session = new Session<U>(renew);
  const api = new Api(session);
  session.subscribe(() => {
    if (session.user()) storage()?.setItem(options.signedInKey, '1');
    else storage()?.removeItem(options.signedInKey);
  });
  const logout = async () => {
    await api.post('/v1/auth/revoke', {}).catch(() => undefined);
    for (const key of flags) storage()?.removeItem(key);
    session.set(null);
  };
  return { session, api, logout };
}

/** The listener page's flag: a login made there is one on the studio and the portal too (the cookie is shared). */
export const LISTENER_SIGNED_IN_KEY = 'station.listener.signed-in';

/** The studio's and the developer portal's login. */
export const { session, api, logout } = platformSession<PlatformUser>({
  signedInKey: 'station.platform.signed-in',
  alsoSignedInKeys: [LISTENER_SIGNED_IN_KEY],
});
