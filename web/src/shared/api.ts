/**
 * The one HTTP client of both pages, on the public API only: bearer token, the X-CSRF-Token that every
 * POST/PUT/PATCH/DELETE needs (contract.md), the error envelope turned into an ApiError, and one retry
 * after refreshing the credential when the server answers 401 (the access token lives 15 minutes).
 */

export interface ErrorEnvelope {
  code: string;
  http_status: number;
  message: string;
  detail?: string | null;
  retry_after?: number | null;
  request_id?: string;
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string | null;
  readonly retryAfter: number | null;

  constructor(status: number, envelope: ErrorEnvelope | null, fallback: string) {
    super(envelope?.message ?? fallback);
    this.status = status;
    this.code = envelope?.code ?? `HTTP_${status}`;
    this.detail = envelope?.detail ?? null;
    this.retryAfter = envelope?.retry_after ?? null;
  }

  /** What a person should read: the message, and the detail when the server gave one. */
  describe(): string {
    return this.detail ? `${this.message}: ${this.detail}` : this.message;
  }
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.describe();
  if (error instanceof Error) return error.message;
  return String(error);
}

/** A credential as the pages hold it. */
export interface Credential {
  token: string;
  csrf: string;
}

/** Where the client gets its credential, and how it renews it (null: logged out). */
export interface CredentialSource {
  current(): Credential | null;
  renew(): Promise<Credential | null>;
}

export interface CallOptions {
  headers?: Record<string, string>;
  /** Do not attach the credential (login, signup, reset). */
  anonymous?: boolean;
  signal?: AbortSignal;
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

async function readError(response: Response): Promise<ApiError> {
  let envelope: ErrorEnvelope | null = null;
  try {
    const body = (await response.json()) as { error?: ErrorEnvelope };
    envelope = body.error ?? null;
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, envelope, `${response.status} ${response.statusText || 'error'}`);
}

export class Api {
  constructor(private readonly credentials: CredentialSource) {}

  /** The raw response of an authenticated request (downloads); throws ApiError when it is not 2xx. */
  async fetch(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Response> {
    const send = (credential: Credential | null) => {
      const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (credential && !options.anonymous) {
        headers.authorization = `Bearer ${credential.token}`;
        if (UNSAFE.has(method)) headers['x-csrf-token'] = credential.csrf;
      }
      return fetch(path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        signal: options.signal,
      });
    };
    let response = await send(this.credentials.current());
    if (response.status === 401 && !options.anonymous && this.credentials.current()) {
      const renewed = await this.credentials.renew();
      if (renewed) response = await send(renewed);
    }
    if (!response.ok) throw await readError(response);
    return response;
  }

  async call<T>(method: string, path: string, body?: unknown, options?: CallOptions): Promise<T> {
    const response = await this.fetch(method, path, body, options);
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get<T>(path: string, options?: CallOptions) {
    return this.call<T>('GET', path, undefined, options);
  }
  post<T>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('POST', path, body, options);
  }
  patch<T>(path: string, body: unknown, options?: CallOptions) {
    return this.call<T>('PATCH', path, body, options);
  }
  put<T>(path: string, body: unknown, options?: CallOptions) {
    return this.call<T>('PUT', path, body, options);
  }
  delete<T>(path: string, options?: CallOptions) {
    return this.call<T>('DELETE', path, undefined, options);
  }
}

/** Query string from the defined, non-empty values. */
export function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export interface Page<T> {
  data: T[];
  total: number;
  page: number;
  limit: number;
}

/**
 * A random Idempotency-Key. From getRandomValues, which (unlike crypto.randomUUID) also works on a page
 * served over plain HTTP under a host name other than localhost, where the browser withholds secure-context APIs.
 */
export function idempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
