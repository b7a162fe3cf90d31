/**
 * A login as a page holds it, in memory only: the access token and its CSRF token, renewed before they
 * expire (15 minutes) and on a 401, by a renewal function the page supplies (the listener's or the staff
 * refresh cookie: HttpOnly, so no script ever holds a refresh token). One renewal at a time: a refresh
 * token is single-use (rotated), and presenting a rotated one revokes the whole login.
 */
import type { Credential, CredentialSource } from './api';

export interface Login<U> extends Credential {
  /** Seconds the access token lives. */
  expiresIn: number;
  user: U;
}

/** Resolves the renewed login, null when the server refused it; rejects when the server could not be reached. */
export type Renew<U> = (login: Login<U> | null) => Promise<Login<U> | null>;

/** Renew this long before the access token expires. */
const RENEW_AHEAD_MS = 60_000;
/** After a renewal that could not reach the server. */
const RETRY_MS = 10_000;

export class Session<U> implements CredentialSource {
  private login: Login<U> | null = null;
  private renewing: Promise<Login<U> | null> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly renewWith: Renew<U>) {}

  current(): Credential | null {
    return this.login;
  }

  user(): U | null {
    return this.login?.user ?? null;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  set(login: Login<U> | null): void {
    this.login = login;
    if (this.timer) clearTimeout(this.timer);
    this.timer = login ? setTimeout(() => void this.renew(), Math.max(5_000, login.expiresIn * 1000 - RENEW_AHEAD_MS)) : null;
    for (const listener of this.listeners) listener();
  }

  /** The same login with some of the user's fields changed (a profile edit), told to the subscribers. */
  updateUser(change: Partial<U>): void {
    if (!this.login) return;
    this.login = { ...this.login, user: { ...this.login.user, ...change } };
    for (const listener of this.listeners) listener();
  }

  /**
   * A fresh access token. A refusal (the renewal function answers null) logs out; a failure to reach the
   * server (it throws) keeps the login and tries again shortly, so a network drop does not log anyone out.
   */
  renew(): Promise<Credential | null> {
    this.renewing ??= this.renewWith(this.login)
      .then(
        (login) => {
          this.set(login);
          return login;
        },
        () => {
          if (this.timer) clearTimeout(this.timer);
          this.timer = this.login ? setTimeout(() => void this.renew(), RETRY_MS) : null;
          return null;
        },
      )
      .finally(() => {
        this.renewing = null;
      });
    return this.renewing;
  }

  /** The current access token, renewing it first when there is none (for WebSocket connections). */
  async token(): Promise<string | null> {
    return this.login?.token ?? (await this.renew())?.token ?? null;
  }
}
