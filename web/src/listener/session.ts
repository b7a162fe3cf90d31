/**
 * The listener's login: platform sign-up/login tokens kept in localStorage across reloads, renewed with
 * the refresh token (POST /v1/auth/refresh rotates it) before the 15-minute access token runs out.
 */
import { Api } from '../shared/api';
import { Session, type Login } from '../shared/session';
import type { ListenerUser, SessionAnswer } from './types';

export function toLogin(answer: SessionAnswer): Login<ListenerUser> {
  return {
    token: answer.token,
    csrf: answer.csrf_token,
    expiresIn: answer.expires_in,
    refreshToken: answer.refresh_token,
    user: answer.user,
  };
}

async function renew(login: Login<ListenerUser> | null): Promise<Login<ListenerUser> | null> {
  if (!login?.refreshToken) return null;
  const response = await fetch('/v1/auth/refresh', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ refresh_token: login.refreshToken }),
  });
  // 5xx and 429: the server is there but cannot answer now; try again rather than log out.
  if (response.status >= 500 || response.status === 429) throw new Error(`refresh answered ${response.status}`);
  if (!response.ok) return null;
  return toLogin((await response.json()) as SessionAnswer);
}

export const session = new Session<ListenerUser>(renew, 'station.listener.login');
export const api = new Api(session);
