/**
 * The listener's login: the platform session of web/src/shared/platform-session.ts under the listener page's
 * own flag. An earlier version kept the whole login, refresh token included, in localStorage; it is read once,
 * sent once to move into the HttpOnly cookie, and deleted.
 */
import { LISTENER_SIGNED_IN_KEY, platformSession, toLogin as toPlatformLogin } from '../shared/platform-session';
import type { Login } from '../shared/session';
import type { SessionAnswer } from '../shared/platform-session';
import type { ListenerUser } from './types';

/** Where an earlier version kept the whole login, refresh token included; read once, then deleted. */
const LEGACY_LOGIN_KEY = 'station.listener.login';

export function toLogin(answer: Omit<SessionAnswer<ListenerUser>, 'refresh_token'>): Login<ListenerUser> {
  return toPlatformLogin(answer);
}

/** The refresh token an earlier version left in localStorage, removed as it is read (it moves into the cookie). */
function takeLegacyRefreshToken(): string | null {
  let store: Storage;
  try {
    store = localStorage;
  } catch {
    return null; // storage disabled: nothing was left there
  }
  const saved = store.getItem(LEGACY_LOGIN_KEY);
  if (saved === null) return null;
  store.removeItem(LEGACY_LOGIN_KEY);
  try {
    const token = (JSON.parse(saved) as { refreshToken?: unknown }).refreshToken;
    return typeof token === 'string' ? token : null;
  } catch {
    return null;
  }
}

export const { session, api, logout } = platformSession<ListenerUser>({ signedInKey: LISTENER_SIGNED_IN_KEY, takeLegacyRefreshToken });
