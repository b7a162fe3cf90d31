/**
 * The ML service's errors, in the station's envelope shape with ML_* codes:
 * {"error":{"code","http_status","message","detail","retry_after","request_id","engine"?}}.
 * An EngineError keeps its JSON form in `engine`, so RemoteEngine rebuilds the same EngineError
 * (code, details) on the station's side. Fastify's own failures (validation, body size, unknown route)
 * are mapped here too.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { EngineError, toEngineError, type EngineErrorCode, type EngineErrorJson } from '../engine/errors.js';
import { DomainError } from '../errors.js';
import { toErrorResponse } from '../http/error-handler.js';
import { HttpError } from '../http/errors.js';

/** HTTP status of each engine failure: the caller's input (422), the service's trouble (5xx). */
const ENGINE_STATUS: Record<EngineErrorCode, number> = {
  UNSUPPORTED_LANGUAGE: 422,
  UNKNOWN_ARTIST: 422,
  INVALID_INPUT: 422,
  INVALID_HYPERPARAMS: 422,
  TRAINING_DIVERGED: 422,
  ARTIFACT_INVALID: 422,
  GENERATION_FAILED: 500,
  CRASHED: 500,
  INTERNAL: 500,
  TIMEOUT: 504,
  SHUTDOWN: 503,
};

export function engineHttpStatus(error: EngineError): number {
  // An artifact the service could not download is the station's link (or network), not its bytes.
  if (error.code === 'ARTIFACT_INVALID' && error.details?.reason === 'FETCH_FAILED') return 502;
  return ENGINE_STATUS[error.code] ?? 500;
}

/**
 * Engine codes whose message is an exception's own text (an engine bug, a worker's crash): a path, an address or
 * a library's words may be in it. It is logged here and replaced on the wire; the code, stage and details
 * (which the station acts on) stay.
 */
const OPAQUE_ENGINE_CODES: ReadonlySet<EngineErrorCode> = new Set(['INTERNAL', 'CRASHED']);

/** An engine error as it may leave the service (a JSON error envelope, or an NDJSON stream's error line). */
export function wireEngineError(error: EngineError, requestId: string): EngineErrorJson {
  const json = error.toJSON();
  if (!OPAQUE_ENGINE_CODES.has(error.code)) return json;
  const what = error.code === 'CRASHED' ? 'an engine worker stopped unexpectedly' : 'an internal error in the engine';
  const during = error.stage ? ` during ${error.stage}` : '';
  return { code: json.code, stage: json.stage, details: json.details, message: `ML service: ${what}${during}; logged with request_id ${requestId}` };
}

export const MlErrors = {
  authRequired: () => new DomainError('unauthenticated', 'AUTH_REQUIRED', 'Authentication required: send the service key in X-API-Key'),
  invalidKey: () => new DomainError('unauthenticated', 'INVALID_CREDENTIALS', 'The API key is not valid'),
  runNotFound: (runId: string) => new DomainError('not_found', 'NOT_FOUND', 'Training run not found', `no running training ${runId}`),
  ackOutOfOrder: (seq: number) => new DomainError('conflict', 'CONFLICT', 'No event is waiting for this acknowledgement', `seq ${seq} is not pending`),
  validation: (detail: string) => new DomainError('invalid', 'VALIDATION_FAILED', 'The request does not fit the schema', detail),
};

function send(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  detail: string,
  retryAfter: number | null,
  engine?: EngineErrorJson,
) {
  if (retryAfter !== null) reply.header('Retry-After', String(retryAfter));
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .send({
      error: {
        code: `ML_${code}`,
        http_status: status,
        message,
        detail,
        retry_after: retryAfter,
        request_id: String(request.id),
        ...(engine ? { engine } : {}),
      },
    });
}

/** Errors of the HTTP layer itself (our DomainErrors and HttpErrors, Fastify's validation, parsing and routing errors). */
function isHttpLayerError(error: unknown): boolean {
  if (error instanceof EngineError) return false;
  if (error instanceof DomainError || error instanceof HttpError) return true;
  const fastifyError = error as Partial<FastifyError>;
  return Boolean(fastifyError.validation) || typeof fastifyError.statusCode === 'number';
}

export function registerMlErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    if (!isHttpLayerError(error)) {
      // Anything the engine threw (or anything unexpected) is an EngineError on the wire.
      const engineError = toEngineError(error);
      const status = engineHttpStatus(engineError);
      if (status >= 500) request.log.error({ err: error }, 'engine call failed');
      const wire = wireEngineError(engineError, String(request.id));
      return send(
        request,
        reply,
        status,
        engineError.code,
        wire.message,
        engineError.stage ? `engine stage: ${engineError.stage}` : '',
        engineError.code === 'SHUTDOWN' ? 5 : null,
        wire,
      );
    }
    const failure = toErrorResponse(error as FastifyError);
    if (failure.status >= 500) request.log.error({ err: error }, 'request failed');
    return send(request, reply, failure.status, failure.code, failure.message, failure.detail, failure.retryAfter);
  });
  app.setNotFoundHandler((request, reply) =>
    send(request, reply, 404, 'NOT_FOUND', 'Not found', `no route ${request.method} ${request.url.split('?')[0]}`, null),
  );
}
