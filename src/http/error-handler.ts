/**
 * One place where every failure becomes the contract's envelope:
 * {"error":{"code","http_status","message","detail","retry_after","request_id"}}.
 * Fastify's own errors (validation, content type, body size, unknown route) are mapped here too, and
 * nothing internal (stack, SQL, library message) reaches a client on a 5xx.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { AppError } from './errors.js';
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

/** Any failure as an AppError: ours as they are, Fastify's own (validation, parsing, routing) mapped, the rest a 500. */
export function toAppError(error: FastifyError | AppError | Error): AppError {
  if (error instanceof AppError) return error;
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) {
    return new AppError(400, 'VALIDATION_FAILED', 'The request does not fit the schema', fastifyError.message);
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(413, 'PAYLOAD_TOO_LARGE', 'The request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type', 'send application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError(400, 'VALIDATION_FAILED', 'The body is not valid JSON', fastifyError.message);
  }
  const status = fastifyError.statusCode ?? 500;
  if (status === 404) return new AppError(404, 'NOT_FOUND', 'Not found');
  if (status === 429) return new AppError(429, 'RATE_LIMITED', 'Too many requests', '', 60);
  if (status >= 400 && status < 500) {
    if (error instanceof SyntaxError) return new AppError(400, 'VALIDATION_FAILED', 'The body is not valid JSON');
    return new AppError(status, 'VALIDATION_FAILED', 'The request could not be processed', fastifyError.message);
  }
  return new AppError(500, 'INTERNAL_ERROR', 'Internal server error', 'the failure was logged with this request_id');
}

export function sendError(request: FastifyRequest, reply: FastifyReply, appError: AppError) {
  const code = `${apiFamilyOf(request.url)}_${appError.code}`;
  if (appError.retryAfter !== null) reply.header('Retry-After', String(appError.retryAfter));
  return reply
    .status(appError.httpStatus)
    .type('application/json; charset=utf-8')
    .send({
      error: {
        code,
        http_status: appError.httpStatus,
        message: appError.message,
        detail: appError.detail,
        retry_after: appError.retryAfter,
        request_id: String(request.id),
      },
    });
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.addSchema(ErrorEnvelope);
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error as FastifyError);
    if (appError.httpStatus >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, appError);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, new AppError(404, 'NOT_FOUND', 'Not found', `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
}
