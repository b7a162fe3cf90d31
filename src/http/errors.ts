/**
 * Failures that exist only because of HTTP (a Range that cannot be served, a plain GET on a WebSocket
 * channel, a body too large): thrown by routes and hooks, never by services, which throw DomainErrors
 * (src/errors.ts). Both become the contract's envelope in error-handler.ts.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly detail = '',
    readonly retryAfter: number | null = null,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
