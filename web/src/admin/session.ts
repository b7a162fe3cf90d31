/**
 * The staff login: POST /api/auth/admin/login with e-mail, password and TOTP code. The access token stays
 * in memory only; the refresh token is the HttpOnly cookie (Path=/api/auth) that POST /api/auth/refresh
 * rotates, which also restores the login after a reload.
 */
import { Api } from '../shared/api';
import { Session, type Login } from '../shared/session';

export interface StaffUser {
  id: string;
  email: string;
  role: string;
}

interface TokenAnswer {
  access_token: string;
  expires_in: number;
  csrf_token: string;
}

export interface LoginAnswer extends TokenAnswer {
  user: StaffUser;
}

export function toLogin(answer: TokenAnswer, user: StaffUser): Login<StaffUser> {
  return { token: answer.access_token, csrf: answer.csrf_token, expiresIn: answer.expires_in, user };
}

const USER_KEY = 'station.admin.user';

/** Who logged in last (not a secret): shown again after a reload while the cookie renews the token. */
export function rememberUser(user: StaffUser | null): void {
  try {
    if (user) sessionStorage.setItem(USER_KEY, JSON.stringify(user));
    else sessionStorage.removeItem(USER_KEY);
  } catch {
    // storage unavailable: the login just does not survive a reload
  }
}

function rememberedUser(): StaffUser | null {
  try {
    const saved = sessionStorage.getItem(USER_KEY);
    return saved ? (JSON.parse(saved) as StaffUser) : null;
  } catch {
    return null;
  }
}

async function renew(login: Login<StaffUser> | null): Promise<Login<StaffUser> | null> {
  const user = login?.user ?? rememberedUser();
  if (!user) return null;
  const response = await fetch('/api/auth/refresh', { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (response.status >= 500 || response.status === 429) throw new Error(`refresh answered ${response.status}`);
  if (!response.ok) {
    rememberUser(null);
    return null;
  }
  return toLogin((await response.json()) as TokenAnswer, user);
}

export const session = new Session<StaffUser>(renew);
export const api = new Api(session);
