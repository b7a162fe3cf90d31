/**
 * One place where every failure becomes the contract's envelope:
 * {"error":{"code","http_status","message","detail","retry_after","request_id"}}.
 * Fastify's own errors (validation, content type, body size, unknown route) are mapped here too, and
 * nothing internal (stack, SQL, library message) reaches a client on a 5xx.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { DomainError, INTERNAL_FAILURE, type ErrorKind } from '../errors.js';
import { isServiceUnavailable } from '../infra/outage.js';
import { HttpError } from './errors.js';
import { apiFamilyOf } from './types.js';

export const ErrorEnvelope = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ examples: ['STATION_VALIDATION_FAILED'] }),
      http_status: Type.Integer(),
      message: Type.String(),
      detail: Type.String(),
      retry_after: Type.Union([Type.Integer(), Type.Null()]),
      request_id: Type.String(),
    }),
  },
  { $id: 'ErrorEnvelope', title: 'Error envelope' },
);

/** What a failure answers: status, the code without its API prefix, and the envelope's texts. */
export interface ErrorResponse {
  status: number;
  code: string;
  message: string;
  detail: string;
  retryAfter: number | null;
}

/** The one mapping from a domain error's kind to an HTTP status. */
export const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  too_large: 413,
  unsupported_media: 415,
  conflict: 409,
  rate_limited: 429,
  failed: 500,
  unavailable: 503,
};

/** Retry-After of a 503 for a backing service: about one reconnect of the Redis and database clients. */
const SERVICE_RETRY_SEC = 5;

function response(status: number, code: string, message: string, detail = '', retryAfter: number | null = null): ErrorResponse {
  return { status, code, message, detail, retryAfter };
}

/** Any failure as a response: ours as they are, Fastify's own (validation, parsing, routing) mapped, the rest a 500. */
export function toErrorResponse(error: FastifyError | Error): ErrorResponse {
  if (error instanceof DomainError) return response(STATUS_OF_KIND[error.kind], error.code, error.message, error.detail, error.retryAfter);
  if (error instanceof HttpError) return response(error.status, error.code, error.message, error.detail, error.retryAfter);
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return response(400, 'VALIDATION_FAILED', 'The request does not fit the schema', fastifyError.message);
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return response(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return response(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type', 'send application/json');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return response(404, 'NOT_FOUND', 'Not found', 'no resource has an id this long');
    case 'FST_ERR_BAD_URL':
      return response(400, 'VALIDATION_FAILED', 'The URL is malformed', 'the path has an invalid percent-encoding');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return response(400, 'VALIDATION_FAILED', 'The body is not valid JSON', fastifyError.message);
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 404) return response(404, 'NOT_FOUND', 'Not found');
  if (status === 429) return response(429, 'RATE_LIMITED', 'Too many requests', '', 60);
  if (status >= 400 && status < 500) {
    if (error instanceof SyntaxError) return response(400, 'VALIDATION_FAILED', 'The body is not valid JSON');
    // Fastify's own messages describe the request; another library's 4xx may carry a path or its internals.
    const ownMessage = typeof fastifyError.code === 'string' && fastifyError.code.startsWith('FST_');
    return response(status, 'VALIDATION_FAILED', 'The request could not be processed', ownMessage ? fastifyError.message : '');
  }
  // PostgreSQL or Redis down or restarting: the request was fine and a retry soon may work.
  if (isServiceUnavailable(error)) return response(503, 'SERVICE_UNAVAILABLE', 'A backing service is unavailable; retry shortly', '', SERVICE_RETRY_SEC);
  // Anything else is ours and unexpected: its text (SQL, paths, addresses, stack) stays in the log.
  return response(500, INTERNAL_FAILURE.code, 'Internal server error', 'the failure was logged with this request_id');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, failure: ErrorResponse) {
  const code = `${apiFamilyOf(request.url)}_${failure.code}`;
  if (failure.retryAfter !== null) reply.header('Retry-After', String(failure.retryAfter));
  return reply
    .status(failure.status)
    .type('application/json; charset=utf-8')
    .send({
      error: {
        code,
        http_status: failure.status,
        message: failure.message,
        detail: failure.detail,
        retry_after: failure.retryAfter,
        request_id: String(request.id),
      },
    });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.addSchema(ErrorEnvelope);
  app.setErrorHandler((error, request, reply) => {
    const failure = toErrorResponse(error as FastifyError);
    if (failure.status >= 500) request.log.error({ err: error, code: failure.code }, 'request failed');
    return sendError(request, reply, failure);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, response(404, 'NOT_FOUND', 'Not found', `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
}
