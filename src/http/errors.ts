/**
 * Typed domain errors. Services throw these with the spec's code *without* the API prefix
 * ("NOT_FOUND", "RADIO_ALREADY_ENABLED"); the error handler adds STATION_ or PLATFORM_ by path and
 * renders the contract's envelope. Messages here are safe to show to a client.
 */
export class AppError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    message: string,
    readonly detail = '',
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const Errors = {
  validation: (detail: string, message = 'The request does not fit the schema') =>
    new AppError(400, 'VALIDATION_FAILED', message, detail),
  authRequired: (detail = '') => new AppError(401, 'AUTH_REQUIRED', 'Authentication required: token missing, invalid or expired', detail),
  invalidCredentials: () => new AppError(401, 'INVALID_CREDENTIALS', 'The credentials are not valid'),
  insufficientScope: (scope: string) =>
    new AppError(403, 'INSUFFICIENT_SCOPE', 'The token lacks the required scope', `required scope: ${scope}`),
  forbidden: (detail: string) => new AppError(403, 'FORBIDDEN', 'This action is not allowed for the caller', detail),
  csrfInvalid: () =>
    new AppError(403, 'CSRF_INVALID', 'Missing or invalid X-CSRF-Token header', 'send the csrf_token issued with your credential'),
  notFound: (what: string, id?: string) =>
    new AppError(404, 'NOT_FOUND', `${what} not found`, id === undefined ? '' : `${what} ${id} does not exist`),
  conflict: (message: string, detail = '') => new AppError(409, 'CONFLICT', message, detail),
  rateLimited: (retryAfterSec: number) =>
    new AppError(429, 'RATE_LIMITED', 'Too many requests', `retry after ${retryAfterSec} s`, retryAfterSec),
};
