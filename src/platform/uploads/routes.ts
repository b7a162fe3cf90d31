/** POST /v1/tracks (upload), GET /v1/tracks/{id}/upload, PATCH /v1/tracks/{id}, DELETE /v1/tracks/{id}. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { IdParams } from '../../http/schemas.js';
import type { UploadAdmission } from './admission.js';
import { declaredBodyBytes, spoolForm, TempFiles, FORM_LIMITS } from './multipart.js';
import { ManagedTrack, TakedownBody, TrackPatchBody, UploadForm } from './schemas.js';
import { PROCESSING_PER_USER, type SpooledFile, type UploadsService } from './uploads.service.js';

export interface UploadRouteOptions {
  /** STATION_UPLOAD_MAX_MB in bytes. */
  maxBytes: number;
  /** STATION_UPLOAD_MAX_SEC (for the documentation; the service applies it). */
  maxSec: number;
  /** Where files are spooled while they are checked (same disk as the blobs, under DATA_DIR). */
  tempDir: string;
  /** STATION_UPLOAD_TIMEOUT_SEC in ms: the upload's body may take this long to arrive (408 after). */
  bodyTimeoutMs: number;
  /** Uploads in flight per user and per instance, and each user's spool share (429 past them). */
  admission: UploadAdmission;
}

const MANAGERS = "Only the artist's owner or an admin: another artist gets 403 on a published track and 404 on one they cannot see (processing, removed).";

export function uploadRoutes(uploads: UploadsService, options: UploadRouteOptions) {
  return async function register(fastify: FastifyInstance) {
    // Registered here, once: the multipart parser and its limits exist for these routes only; every other
    // route keeps answering 415 to a multipart body.
    await fastify.register(multipart, { limits: { ...FORM_LIMITS, fileSize: options.maxBytes }, throwFileSizeLimit: true });
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const temp = new TempFiles(options.tempDir);
    const spooled = new WeakMap<object, SpooledFile>();
    const admitted = new WeakMap<object, () => void>();
    // Whichever comes first, the answer or the client going away: the spool file and the upload's slot are freed.
    const finish = async (request: FastifyRequest) => {
      admitted.get(request)?.();
      await temp.release(request);
    };
    app.addHook('onResponse', finish);
    app.addHook('onRequestAbort', finish);
    // An upload refused before its body was read (429, 413, 408): the connection closes after the answer
    // rather than take in the rest of the file only to throw it away.
    app.addHook('onSend', async (request, reply) => {
      if (!request.raw.complete) reply.header('Connection', 'close');
    });

    app.post(
      '/v1/tracks',
      {
        config: { scope: 'artist', bodyTimeoutMs: options.bodyTimeoutMs },
        schema: {
          tags: ['tracks'],
          summary: 'Uploads a track (multipart/form-data): probed, loudness-measured, then rendered and published',
          description: [
            `Accepted formats: MP3 (MPEG-1/2 Layer III), WAV (PCM or float), FLAC (native FLAC, with its length in STREAMINFO) and AIFF / AIFF-C (uncompressed PCM or 32-bit float, mono or stereo). The format is recognised from the bytes; the file part's Content-Type and file name are not consulted.`,
            `The file is checked whole before anything is stored: not audio, or audio in another format, answers 415 PLATFORM_UNSUPPORTED_MEDIA_TYPE; a file cut short, damaged, undecodable or under 1 s answers 400 PLATFORM_VALIDATION_FAILED (the detail names the reason); a file over ${Math.round(options.maxBytes / 1048576)} MB (STATION_UPLOAD_MAX_MB) answers 413 PLATFORM_PAYLOAD_TOO_LARGE. Nothing is kept then.`,
            `What the header declares is judged before a sample is decoded: a sample rate outside 8-192 kHz, a channel count outside 1-8, or audio longer than ${options.maxSec} s (STATION_UPLOAD_MAX_SEC) answers 400 PLATFORM_VALIDATION_FAILED, the message naming what is wrong. A caller may have ${options.admission.limits.perUser} uploads in flight and ${PROCESSING_PER_USER} tracks processing at once, and the server a few uploads in all: past that, 429 PLATFORM_RATE_LIMITED with Retry-After. The body must arrive within ${Math.round(options.bodyTimeoutMs / 1000)} s (STATION_UPLOAD_TIMEOUT_SEC), or 408.`,
            'Accepted: 202 with `status: "processing"` and Location: /v1/tracks/{id}/upload. The file is kept as uploaded (for a FLAC file, without an ID3 tag some taggers put in front of its stream); the master the radio airs is lossless where the upload is (a WAV or AIFF as FLAC of the same samples, a FLAC upload itself; an MP3 upload is its own master); the 128, 192 and 320 kbps MP3 renditions are encoded once each from the upload in the background, then the track is `published` (event `track.published`) and playable at GET /v1/tracks/{id}/stream?quality=.',
            "Tags fill the fields left out (title, genre, album, ISRC, year). Uploads by platform-owned artists can join the station's training dataset under module B's rules; no other upload ever does. With a test key the track is uploaded to the sandbox, for the sandbox copy of the caller's artist (same slug): it is seen by test keys only, and never aired or trained on.",
          ].join('\n\n'),
          consumes: ['multipart/form-data'],
          body: UploadForm,
          response: { 202: ManagedTrack },
        },
        // The form is read before validation, so the schema checks its text fields like any JSON body's.
        preValidation: async (request) => {
          const principal = request.principal!;
          admitted.set(request, options.admission.admit(principal.userId ?? principal.credentialId, declaredBodyBytes(request, options.maxBytes)));
          // The client closing the socket before the whole body arrived stops the copy at once.
          // It may have gone already, while authentication was awaited: then 'close' has been and gone.
          const gone = new AbortController();
          const abandoned = () => !request.raw.complete && (request.raw.destroyed || request.raw.socket?.destroyed === true);
          if (abandoned()) gone.abort();
          else request.raw.once('close', () => abandoned() && gone.abort());
          const form = await spoolForm(request, temp, options.maxBytes, gone.signal);
          if (form.file) spooled.set(request, form.file);
          // Without a file part there is no `file`, and validation says so (400).
          (request as { body: unknown }).body = form.file ? { ...form.fields, file: form.file.filename ?? 'upload' } : { ...form.fields };
        },
      },
      async (request, reply) => {
        const { file: _name, ...form } = request.body;
        const view = await uploads.upload(request.principal!, form, spooled.get(request)!);
        return reply.code(202).header('Location', `/v1/tracks/${view.id}/upload`).send(view);
      },
    );

    app.get(
      '/v1/tracks/:id/upload',
      {
        config: { scope: 'artist' },
        schema: {
          tags: ['tracks'],
          summary: 'A track as its owner sees it: status (processing, published, removed, failed), master, loudness, renditions',
          description: MANAGERS,
          params: IdParams('id'),
          response: { 200: ManagedTrack },
        },
      },
      async (request) => uploads.get(request.principal!, request.params.id),
    );

    app.patch(
      '/v1/tracks/:id',
      {
        config: { scope: 'tracks:write' },
        schema: {
          tags: ['tracks'],
          summary: "Updates a track's metadata",
          description: `${MANAGERS} An ISRC another track holds answers 409.`,
          params: IdParams('id'),
          body: TrackPatchBody,
          response: { 200: ManagedTrack },
        },
      },
      async (request) => uploads.update(request.principal!, request.params.id, request.body),
    );

    app.delete(
      '/v1/tracks/:id',
      {
        config: { scope: 'tracks:write' },
        schema: {
          tags: ['tracks'],
          summary: 'Takes a track down, with a reason',
          description: `${MANAGERS} The track leaves the catalog (404 to everyone but admins) and the radio's rotation at once; its rows, play history and registry entries stay. Emits \`track.removed\` {track_id, reason} if it was published. Taking down a removed track again changes nothing.`,
          params: IdParams('id'),
          body: TakedownBody,
          response: { 200: ManagedTrack },
        },
      },
      async (request) => uploads.remove(request.principal!, request.params.id, request.body.reason),
    );
  };
}
