/**
 * Domain errors: what went wrong, in the specification's words, with no transport in them. Services throw
 * these with the spec's code *without* the API prefix ("NOT_FOUND", "RADIO_ALREADY_ENABLED"); the HTTP error
 * handler (src/http/error-handler.ts) is the one place that turns a kind into a status code, adds STATION_ or
 * PLATFORM_ by path and renders the contract's envelope. Messages here are safe to show to a client.
 */
export type ErrorKind =
  /** The request does not fit what the operation accepts. */
  | 'invalid'
  /** No valid credential was presented. */
  | 'unauthenticated'
  /** The caller is known but may not do this. */
  | 'forbidden'
  | 'not_found'
  /** The request body is larger than the operation accepts (an upload past its size limit). */
  | 'too_large'
  /** The body is not of a kind the operation takes (an upload that is not audio it can decode). */
  | 'unsupported_media'
  /** The current state forbids the action. */
  | 'conflict'
  | 'rate_limited'
  /** Our own failure in doing the work (generation, safety block); the caller did nothing wrong. */
  | 'failed'
  /** A dependency is down or the product is not ready; retrying later may work. */
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly detail = '',
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export function isDomainError(error: unknown, code?: string): error is DomainError {
  return error instanceof DomainError && (code === undefined || error.code === code);
}

export const Errors = {
  validation: (detail: string, message = 'The request does not fit the schema') => new DomainError('invalid', 'VALIDATION_FAILED', message, detail),
  authRequired: (detail = '') => new DomainError('unauthenticated', 'AUTH_REQUIRED', 'Authentication required: token missing, invalid or expired', detail),
  invalidCredentials: () => new DomainError('unauthenticated', 'INVALID_CREDENTIALS', 'The credentials are not valid'),
  insufficientScope: (scope: string) => new DomainError('forbidden', 'INSUFFICIENT_SCOPE', 'The token lacks the required scope', `required scope: ${scope}`),
  forbidden: (detail: string) => new DomainError('forbidden', 'FORBIDDEN', 'This action is not allowed for the caller', detail),
  /**
   * 403 EMAIL_UNVERIFIED (PLATFORM_EMAIL_UNVERIFIED on platform paths): the action is one contract.md marks
   * "verified address". Thrown by assertEmailVerified (src/auth/email-verification.ts), which is what modules call.
   */
  emailUnverified: () =>
    new DomainError(
      'forbidden',
      'EMAIL_UNVERIFIED',
      'This action needs a verified e-mail address',
      'open the link mailed to your address, or ask for a new one with POST /v1/auth/verify-email/resend',
    ),
  csrfInvalid: () => new DomainError('forbidden', 'CSRF_INVALID', 'Missing or invalid X-CSRF-Token header', 'send the csrf_token issued with your credential'),
  notFound: (what: string, id?: string) =>
    new DomainError('not_found', 'NOT_FOUND', `${what} not found`, id === undefined ? '' : `${what} ${id} does not exist`),
  conflict: (message: string, detail = '') => new DomainError('conflict', 'CONFLICT', message, detail),
  tooLarge: (detail: string) => new DomainError('too_large', 'PAYLOAD_TOO_LARGE', 'The request body is too large', detail),
  unsupportedMedia: (message: string, detail = '') => new DomainError('unsupported_media', 'UNSUPPORTED_MEDIA_TYPE', message, detail),
  rateLimited: (retryAfterSec: number, message = 'Too many requests') =>
    new DomainError('rate_limited', 'RATE_LIMITED', message, `retry after ${retryAfterSec} s`, retryAfterSec),
};

/**
 * What a client, a stored status field or an outgoing webhook may say about a failure. Every place that keeps
 * a failure for clients (a job's error message) or sends it out (an event, a webhook payload) goes through
 * `publicFailure`; nothing else turns an exception into text for the outside.
 */
export interface PublicFailure {
  /** A code without the API prefix, as DomainError codes are ('TRAINING_FAILED', 'INTERNAL_ERROR'). */
  code: string;
  message: string;
}

/** What anything that is not a DomainError becomes: the real error is logged, never shown. */
export const INTERNAL_FAILURE: PublicFailure = Object.freeze({ code: 'INTERNAL_ERROR', message: 'Internal error; it was logged on the server' });

/** Where publicFailure logs the real error (a pino/Fastify logger fits). */
export interface FailureLog {
  error(object: Record<string, unknown>, message: string): void;
  warn(object: Record<string, unknown>, message: string): void;
}

/**
 * The public face of any failure. A DomainError's message is written for clients and passes as it is; anything
 * else (a library's, the OS's, the database's or the engine's own text, which may carry paths, addresses,
 * SQL or tokens) becomes `fallback`, a fixed coarse message with its code. With a `log`, the real error is
 * logged server-side with `context` (the job id...), so the coarse answer can be traced.
 */
export function publicFailure(error: unknown, options: { fallback?: PublicFailure; log?: FailureLog; context?: Record<string, unknown> } = {}): PublicFailure {
  const fallback = options.fallback ?? INTERNAL_FAILURE;
  if (error instanceof DomainError) {
    options.log?.warn({ ...options.context, err: error, code: error.code }, 'failure shown to clients');
    return { code: error.code, message: error.message };
  }
  options.log?.error({ ...options.context, err: error, public_code: fallback.code }, 'internal failure; clients see a coarse message');
  return { code: fallback.code, message: fallback.message };
}
