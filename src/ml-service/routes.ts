/**
 * The /ml/v1 routes: thin handlers that decode the wire form (protocol.ts), call one Engine method and
 * encode its answer. Generation and training answer NDJSON streams; everything else answers JSON.
 */
import type { FastifyInstance } from 'fastify';
import { Type, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Engine, TrackResult } from '../engine/engine.js';
import { EngineError, toEngineError, type EngineErrorJson } from '../engine/errors.js';
import {
  AudioFeaturesSchema,
  CheckAudioBody,
  CheckLyricsBody,
  EngineHealthSchema,
  FeaturesBody,
  GenerateLineSchema,
  InfluencesBody,
  LyricsJobBody,
  LyricsResultSchema,
  MlErrorEnvelope,
  MP3,
  NDJSON,
  RunIdParams,
  SafetyVerdictSchema,
  StyleInfluenceSchema,
  TrackJobBody,
  TrainAckBody,
  TrainingSpecBody,
  TrainLineSchema,
  TranscodeQuery,
  type GenerateLine,
  type TrainLine,
  type WireTrackResult,
} from '../engine/remote/protocol.js';
import { MlErrors, wireEngineError } from './errors.js';
import { fetchUrlBytes } from './http-artifact-source.js';
import { NdjsonStream } from './ndjson-stream.js';
import type { TrainingRuns } from './training-runs.js';

export interface MlRouteDeps {
  engine: Engine;
  runs: TrainingRuns;
  /** Heartbeat period of the NDJSON streams. */
  heartbeatMs?: number;
  /** Limits for audio fetched by /features { url }. */
  audioFetch: { timeoutMs: number; maxBytes: number };
}

const errors = { '4xx': Type.Ref(MlErrorEnvelope), '5xx': Type.Ref(MlErrorEnvelope) };
const json = <T extends object>(schema: T) => ({ 200: schema, ...errors });
const ndjson = <T extends object>(schema: T, description: string) => ({
  200: { description, content: { [NDJSON]: { schema } } },
  ...errors,
});
/** Stage of a run id: find-my-way needs the pattern to tell the param from the ":ack"/":stop" suffix. */
const RUN = ':run_id(^[0-9a-f-]{36})';

export function mlRoutes(deps: MlRouteDeps) {
  const { engine, runs } = deps;
  return async function register(fastify: FastifyInstance) {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

    app.get(
      '/ml/v1/health',
      { schema: { tags: ['engine'], summary: 'Engine health: workers, queue, recent failures', response: json(EngineHealthSchema) } },
      () => engine.health(),
    );

    app.post(
      '/ml/v1/tracks::generate',
      {
        schema: {
          tags: ['generation'],
          summary: 'Generate a track (NDJSON stream: progress lines, then one result or error line)',
          body: TrackJobBody,
          response: ndjson(
            GenerateLineSchema,
            'application/x-ndjson: {"type":"progress","pct","eta"}*, then {"type":"result","result"} or {"type":"error","error"}',
          ),
        },
      },
      (request, reply) => {
        const stream = new NdjsonStream<GenerateLine>(reply, deps.heartbeatMs);
        engine
          .generateTrack(request.body, (pct, eta) => stream.write({ type: 'progress', pct, eta }))
          .then((track) => stream.end({ type: 'result', result: encodeTrack(track) }))
          .catch((error) => stream.end({ type: 'error', error: logged(request, toEngineError(error, 'generateTrack')) }));
        stream.send();
      },
    );

    app.post(
      '/ml/v1/lyrics::generate',
      { schema: { tags: ['generation'], summary: 'Write lyrics with a lyrics model', body: LyricsJobBody, response: json(LyricsResultSchema) } },
      (request) => engine.generateLyrics(request.body),
    );

    app.post(
      '/ml/v1/safety/lyrics',
      {
        schema: {
          tags: ['safety'],
          summary: 'Safety verdict for lyrics against a safety reference',
          body: CheckLyricsBody,
          response: json(SafetyVerdictSchema),
        },
      },
      (request) => engine.checkLyrics(request.body.reference, request.body.lyrics, request.body.explicitAllowed),
    );

    app.post(
      '/ml/v1/safety/audio',
      {
        schema: {
          tags: ['safety'],
          summary: 'Safety verdict for audio features against a safety reference',
          body: CheckAudioBody,
          response: json(SafetyVerdictSchema),
        },
      },
      (request) => engine.checkAudio(request.body.reference, request.body.features),
    );

    app.post(
      '/ml/v1/features',
      {
        schema: {
          tags: ['analysis'],
          summary: 'Extract audio features (audio as base64, or a url to fetch)',
          body: FeaturesBody,
          response: json(Type.Ref(AudioFeaturesSchema)),
        },
      },
      async (request) => {
        const { audio, url, format } = request.body;
        if ((audio === undefined) === (url === undefined)) throw MlErrors.validation('send exactly one of audio and url');
        const bytes = audio !== undefined ? Buffer.from(audio, 'base64') : await fetchAudio(url!, deps.audioFetch);
        return engine.extractFeatures(bytes, format);
      },
    );

    // The one binary route: an MP3 master in, the same MP3 at another bitrate out (no base64 on either side).
    app.addContentTypeParser(MP3, { parseAs: 'buffer', bodyLimit: deps.audioFetch.maxBytes }, (_request, body, done) => done(null, body));
    app.post(
      '/ml/v1/audio::transcode',
      {
        schema: {
          tags: ['analysis'],
          summary: 'Re-encode an MP3 at another bitrate (body and answer are audio/mpeg bytes; the ID3 tag is kept)',
          querystring: TranscodeQuery,
          consumes: [MP3],
          response: {
            200: { description: 'the re-encoded MP3', content: { [MP3]: { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } } },
            ...errors,
          },
        },
      },
      async (request, reply) => {
        if (!Buffer.isBuffer(request.body) || request.body.length === 0) throw MlErrors.validation('send the MP3 bytes as audio/mpeg');
        const mp3 = await engine.transcode(request.body, request.query.quality);
        return reply.status(200).type(MP3).send(mp3);
      },
    );

    app.post(
      '/ml/v1/influences',
      {
        schema: {
          tags: ['analysis'],
          summary: 'The k reference items nearest in style-embedding space',
          body: InfluencesBody,
          response: json(Type.Array(StyleInfluenceSchema)),
        },
      },
      (request) => engine.influences(request.body.styleModel, request.body.reference, request.body.features, request.body.k),
    );

    app.post(
      '/ml/v1/train',
      {
        schema: {
          tags: ['training'],
          summary: 'Train a model (NDJSON stream; acknowledge every epoch and checkpoint line with :ack)',
          body: TrainingSpecBody,
          response: ndjson(
            TrainLineSchema,
            'application/x-ndjson: {"type":"started","run_id"}, then {"type":"epoch"|"checkpoint","seq",...}* (each waits for POST /ml/v1/train/{run_id}:ack), then {"type":"result","result"} or {"type":"error","error"}',
          ),
        },
      },
      (request, reply) => {
        const run = runs.start();
        const stream = new NdjsonStream<TrainLine>(reply, deps.heartbeatMs);
        stream.onAbort(() => run.abort());
        stream.write({ type: 'started', run_id: run.id });
        // Each epoch/checkpoint line waits for the caller's ack, so its hooks run before the next epoch.
        const deliver = async (toLine: (seq: number) => TrainLine) => {
          const seq = run.nextSeq();
          stream.write(toLine(seq));
          await run.waitForAck(seq);
        };
        engine
          .train(request.body, {
            onEpoch: (epoch) => deliver((seq) => ({ type: 'epoch', seq, epoch })),
            onCheckpoint: (checkpoint) => deliver((seq) => ({ type: 'checkpoint', seq, checkpoint })),
            shouldStop: () => run.stopRequested,
          })
          .then((result) => stream.end({ type: 'result', result }))
          .catch((error) => {
            if (!stream.aborted) stream.end({ type: 'error', error: logged(request, toEngineError(error, 'train')) });
          })
          .finally(() => runs.finish(run));
        stream.send();
      },
    );

    app.post(
      `/ml/v1/train/${RUN}::ack`,
      {
        schema: {
          tags: ['training'],
          summary: 'Acknowledge a handled epoch or checkpoint line; stop: true ends the run at that checkpoint',
          params: RunIdParams,
          body: TrainAckBody,
          response: { 204: Type.Null(), ...errors },
        },
      },
      async (request, reply) => {
        const run = runs.get(request.params.run_id);
        if (!run) throw MlErrors.runNotFound(request.params.run_id);
        if (!run.ack(request.body.seq, request.body.stop ?? false)) throw MlErrors.ackOutOfOrder(request.body.seq);
        return reply.status(204).send(null);
      },
    );

    app.post(
      `/ml/v1/train/${RUN}::stop`,
      {
        schema: {
          tags: ['training'],
          summary: 'Ask a run to stop at its next checkpoint; the stream then ends with stopped: true',
          params: RunIdParams,
          response: { 202: Type.Object({ run_id: Type.String(), stopping: Type.Literal(true) }), ...errors },
        },
      },
      async (request, reply) => {
        const run = runs.get(request.params.run_id);
        if (!run) throw MlErrors.runNotFound(request.params.run_id);
        run.stopRequested = true;
        return reply.status(202).send({ run_id: run.id, stopping: true as const });
      },
    );
  };
}

function encodeTrack(track: TrackResult): WireTrackResult {
  const vocals = track.vocals ? { ...track.vocals, stemMp3: track.vocals.stemMp3.toString('base64') } : null;
  return { ...track, master: track.master?.toString('base64'), mp3: track.mp3.toString('base64'), coverPng: track.coverPng.toString('base64'), vocals };
}

async function fetchAudio(url: string, limits: { timeoutMs: number; maxBytes: number }): Promise<Buffer> {
  return fetchUrlBytes(url, limits).catch((error: Error) => {
    throw new EngineError('INVALID_INPUT', `cannot fetch the audio: ${error.message}`, { stage: 'extractFeatures', details: { reason: 'FETCH_FAILED' } });
  });
}

/** A stream's error line: the real error logged, its wire form (no exception text for opaque codes) sent. */
function logged(request: { id: unknown; log: { error(obj: object, msg: string): void } }, error: EngineError): EngineErrorJson {
  if (['INTERNAL', 'CRASHED', 'GENERATION_FAILED', 'TIMEOUT'].includes(error.code)) request.log.error({ err: error }, 'engine stream failed');
  return wireEngineError(error, String(request.id));
}
