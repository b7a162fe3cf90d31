/**
 * "Raw internal error text never reaches a webhook or a client" (issue 8, item 7): the one mapping every
 * stored or sent failure goes through (publicFailure), the error handler's paths, webhook URLs in logs, and
 * the ML service's error envelope and stream error lines.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../src/engine/engine.js';
import { EngineError } from '../../src/engine/errors.js';
import { API_KEY_HEADER } from '../../src/engine/remote/protocol.js';
import { DomainError, Errors, INTERNAL_FAILURE, publicFailure } from '../../src/errors.js';
import { toErrorResponse } from '../../src/http/error-handler.js';
import { buildMlHttp } from '../../src/ml-service/server.js';
import { loggableUrl } from '../../src/platform/webhooks/delivery.js';
import { internalTrainingFailure, trainingFailureOf } from '../../src/station/training/errors.js';

const SECRET_TEXT = 'connect ECONNREFUSED 10.0.0.5:5432 reading /var/lib/station/keys/jwt.key (password=hunter2)';
// The port with its colon: a bare "5432" can turn up by chance inside a random uuid.
const LEAKS = /ECONNREFUSED|10\.0\.0\.5|:5432|\/var\/lib|jwt\.key|hunter2/;

function recordingLog() {
  const lines: { level: string; object: Record<string, unknown>; message: string }[] = [];
  return {
    lines,
    error: (object: Record<string, unknown>, message: string) => void lines.push({ level: 'error', object, message }),
    warn: (object: Record<string, unknown>, message: string) => void lines.push({ level: 'warn', object, message }),
  };
}

describe('publicFailure', () => {
  it('passes a DomainError as its code and message', () => {
    expect(publicFailure(Errors.conflict('Cannot pause a completed training job'))).toEqual({
      code: 'CONFLICT',
      message: 'Cannot pause a completed training job',
    });
  });

  it('turns anything else into the fixed coarse failure, and logs the real error with the context', () => {
    const log = recordingLog();
    const error = new Error(SECRET_TEXT);
    const failure = publicFailure(error, { log, context: { jobId: 'job-1' } });
    expect(failure).toEqual(INTERNAL_FAILURE);
    expect(JSON.stringify(failure)).not.toMatch(LEAKS);
    expect(log.lines).toHaveLength(1);
    expect(log.lines[0]).toMatchObject({ level: 'error', object: { jobId: 'job-1', err: error } });
    for (const thrown of [SECRET_TEXT, { message: SECRET_TEXT }, null, undefined, 42]) expect(publicFailure(thrown)).toEqual(INTERNAL_FAILURE);
  });

  it("uses the caller's fallback (a training stage's fixed words) for what is not a DomainError", () => {
    const fallback = internalTrainingFailure('save_model');
    expect(publicFailure(new Error(SECRET_TEXT), { fallback })).toEqual(fallback);
    expect(fallback.message).not.toMatch(LEAKS);
  });

  it("maps the engine failures a client can act on to the station's words, and keeps the others opaque", () => {
    const diverged = trainingFailureOf(new EngineError('TRAINING_DIVERGED', `loss NaN at ${SECRET_TEXT}`, { details: { epoch: 3 } }));
    expect(diverged).toBeInstanceOf(DomainError);
    expect(publicFailure(diverged).message).toBe('Training diverged at epoch 3: the loss is no longer finite; try a lower learning_rate');
    const checkpoint = publicFailure(trainingFailureOf(new EngineError('INVALID_INPUT', SECRET_TEXT, { details: { reason: 'CHECKPOINT_MISMATCH' } })));
    expect(checkpoint.message).toMatch(/checkpoint/);
    for (const code of ['INTERNAL', 'SHUTDOWN', 'TIMEOUT', 'GENERATION_FAILED'] as const) {
      expect(publicFailure(trainingFailureOf(new EngineError(code, SECRET_TEXT)))).toEqual(INTERNAL_FAILURE);
    }
    const fetchFailed = new EngineError('ARTIFACT_INVALID', SECRET_TEXT, { details: { reason: 'FETCH_FAILED' } });
    expect(publicFailure(trainingFailureOf(fetchFailed))).toEqual(INTERNAL_FAILURE);
    for (const code of ['TRAINING_DIVERGED', 'INVALID_INPUT', 'ARTIFACT_INVALID', 'CRASHED'] as const) {
      expect(publicFailure(trainingFailureOf(new EngineError(code, SECRET_TEXT))).message).not.toMatch(LEAKS);
    }
  });
});

describe('the HTTP error handler', () => {
  it('answers an unexpected error with a fixed 500 and none of its text', () => {
    const failure = toErrorResponse(new Error(SECRET_TEXT));
    expect(failure).toMatchObject({ status: 500, code: 'INTERNAL_ERROR', message: 'Internal server error' });
    expect(JSON.stringify(failure)).not.toMatch(LEAKS);
  });

  it("does not echo another library's 4xx message, only Fastify's own", () => {
    const library = Object.assign(new Error(`ENOENT: no such file or directory, open '/var/lib/station/keys/jwt.key'`), { statusCode: 403 });
    const failure = toErrorResponse(library);
    expect(failure.status).toBe(403);
    expect(JSON.stringify(failure)).not.toMatch(LEAKS);
    const fastify = Object.assign(new Error('Unsupported Media Type: text/csv'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_TYPE' });
    expect(toErrorResponse(fastify).detail).toBe('Unsupported Media Type: text/csv');
  });
});

describe('webhook URLs in logs', () => {
  it('keep origin and path, never the query, fragment or credentials', () => {
    expect(loggableUrl('https://hooks.example.com/training?token=abc123')).toBe('https://hooks.example.com/training (query redacted)');
    expect(loggableUrl('https://user:pw@hooks.example.com:8443/a/b#sig=xyz')).toBe('https://hooks.example.com:8443/a/b (query redacted)');
    expect(loggableUrl('http://hooks.example.com/plain')).toBe('http://hooks.example.com/plain');
    expect(loggableUrl('not a url?token=abc123')).toBe('(not a URL)');
  });
});

describe('the ML service', () => {
  const failing = (error: Error) =>
    new Proxy({} as Engine, {
      get: (_target, name) => (name === 'kind' ? 'local' : async () => Promise.reject(error)),
    });
  const ref = { version: 'v1', sha256: 'a'.repeat(64), blobKey: 'datasets/x.json', url: 'http://station.test/media/x' };

  it("answers an engine bug's error without its text, keeping the code and stage", async () => {
    const { app } = await buildMlHttp({ engine: failing(new Error(SECRET_TEXT)), apiKey: 'key' });
    try {
      const response = await app.inject({ method: 'GET', url: '/ml/v1/health', headers: { [API_KEY_HEADER]: 'key', 'x-request-id': 'req-1' } });
      expect(response.statusCode).toBe(500);
      const { error } = response.json();
      expect(error).toMatchObject({ code: 'ML_INTERNAL', request_id: 'req-1', engine: { code: 'INTERNAL' } });
      expect(error.message).toBe('ML service: an internal error in the engine; logged with request_id req-1');
      expect(response.body).not.toMatch(LEAKS);
    } finally {
      await app.close();
    }
  });

  it('ends a training stream with an error line without the text of a crash', async () => {
    const crash = new EngineError('CRASHED', `engine worker crashed during train: ${SECRET_TEXT}`, { stage: 'train' });
    const { app } = await buildMlHttp({ engine: failing(crash), apiKey: 'key' });
    try {
      const response = await app.inject({
        method: 'POST',
        url: '/ml/v1/train',
        headers: { [API_KEY_HEADER]: 'key', 'x-request-id': 'req-2' },
        payload: {
          modelType: 'lyrics',
          dataset: ref,
          hyperparams: { epochs: 1, learningRate: 0.01, batchSize: 8, warmupSteps: 0 },
          base: null,
          resumeFrom: null,
          seed: 1,
        },
      });
      const lines = response.body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const last = lines.at(-1);
      expect(last).toMatchObject({ type: 'error', error: { code: 'CRASHED', stage: 'train' } });
      expect(last.error.message).toBe('ML service: an engine worker stopped unexpectedly during train; logged with request_id req-2');
      expect(response.body).not.toMatch(LEAKS);
    } finally {
      await app.close();
    }
  });

  it('keeps the words of an input error, which the station maps for the client', async () => {
    const { app } = await buildMlHttp({ engine: failing(new EngineError('INVALID_HYPERPARAMS', 'learning_rate must be positive')), apiKey: 'key' });
    try {
      const response = await app.inject({
        method: 'POST',
        url: '/ml/v1/train',
        headers: { [API_KEY_HEADER]: 'key' },
        payload: {
          modelType: 'lyrics',
          dataset: ref,
          hyperparams: { epochs: 1, learningRate: 0.01, batchSize: 8, warmupSteps: 0 },
          base: null,
          resumeFrom: null,
          seed: 1,
        },
      });
      const last = JSON.parse(response.body.trim().split('\n').at(-1)!);
      expect(last.error).toMatchObject({ code: 'INVALID_HYPERPARAMS', message: 'learning_rate must be positive' });
    } finally {
      await app.close();
    }
  });
});
