/**
 * Reads an upload's multipart/form-data body: text fields into an object, the one file part streamed to a
 * temporary file, never past the size limit (busboy stops counting bytes into it at the limit, and the
 * request is refused with 413). The temporary file is removed as soon as spooling fails (the client closed
 * the socket mid-body: `signal` aborts the copy, and the file goes in the `catch`); otherwise `TempFiles`
 * removes it when the response ends or the request is aborted, whatever happened.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { DomainError, Errors } from '../../errors.js';
import type { SpooledFile } from './uploads.service.js';

export const FILE_FIELD = 'file';

/** Text fields and parts an upload form may have (the schema decides which names are right). */
export const FORM_LIMITS = { fields: 20, fieldSize: 4096, fieldNameSize: 100, files: 1, parts: 21, headerPairs: 100 };
/** Room for the form's text fields and boundaries when judging a Content-Length against the file limit. */
const FORM_OVERHEAD_BYTES = 128 * 1024;

/** What an upload may spool: its Content-Length, or the most a form may carry when it declares none. */
export function declaredBodyBytes(request: FastifyRequest, maxBytes: number): number {
  const declared = Number(request.headers['content-length']);
  return Number.isFinite(declared) && declared >= 0 ? Math.min(declared, maxBytes + FORM_OVERHEAD_BYTES) : maxBytes + FORM_OVERHEAD_BYTES;
}

export interface SpooledForm {
  fields: Record<string, string>;
  file: SpooledFile | null;
}

/** Temporary files of requests in flight, removed when each response ends. */
export class TempFiles {
  private readonly byRequest = new WeakMap<FastifyRequest, string[]>();

  constructor(readonly dir: string) {}

  async create(request: FastifyRequest): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const path = join(this.dir, `${randomUUID()}.part`);
    const list = this.byRequest.get(request) ?? [];
    list.push(path);
    this.byRequest.set(request, list);
    return path;
  }

  async release(request: FastifyRequest): Promise<void> {
    const list = this.byRequest.get(request);
    this.byRequest.delete(request);
    await Promise.all((list ?? []).map((path) => rm(path, { force: true })));
  }
}

/** `signal` aborts the copy when the client goes away mid-body (its file is then removed here). */
export async function spoolForm(request: FastifyRequest, temp: TempFiles, maxBytes: number, signal: AbortSignal): Promise<SpooledForm> {
  if (!request.isMultipart()) {
    throw Errors.unsupportedMedia('Uploads take multipart/form-data', `send the audio as the "${FILE_FIELD}" part of a multipart/form-data body`);
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + FORM_OVERHEAD_BYTES) throw tooLarge(maxBytes);
  const fields: Record<string, string> = {};
  let file: SpooledFile | null = null;
  let path: string | null = null;
  try {
    for await (const part of request.parts({ limits: { ...FORM_LIMITS, fileSize: maxBytes } })) {
      if (part.type === 'file') {
        if (part.fieldname !== FILE_FIELD) throw Errors.validation(`the audio goes in the "${FILE_FIELD}" part, not "${part.fieldname}"`);
        path = await temp.create(request);
        await pipeline(part.file, createWriteStream(path), { signal });
        if (part.file.truncated) throw tooLarge(maxBytes);
        file = { path, size: part.file.bytesRead, filename: part.filename || null };
      } else {
        if (part.fieldname === FILE_FIELD) throw Errors.validation(`"${FILE_FIELD}" must be a file part`);
        if (part.fieldnameTruncated || part.valueTruncated) throw Errors.validation(`the field "${part.fieldname.slice(0, 40)}" is too long`);
        if (Object.hasOwn(fields, part.fieldname)) throw Errors.validation(`the field "${part.fieldname}" is given twice`);
        fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    if (path) await rm(path, { force: true });
    throw multipartFailure(error, maxBytes);
  }
  return { fields, file };
}

const tooLarge = (maxBytes: number) => Errors.tooLarge(`the file may be at most ${maxBytes} bytes (${(maxBytes / 1048576).toFixed(1)} MB)`);

/** The parser's own failures as the envelope's errors; anything else (a disk error) stays an internal error. */
function multipartFailure(error: unknown, maxBytes: number): unknown {
  if (error instanceof DomainError) return error;
  const code = (error as { code?: unknown }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(maxBytes);
  if (code === 'FST_FILES_LIMIT') return Errors.validation('an upload carries one file');
  if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') return Errors.validation('the form has too many fields');
  if (typeof code === 'string' && code.startsWith('FST_')) return Errors.validation('the multipart body cannot be read', String((error as Error).message));
  // busboy's own complaints about a malformed body (no boundary, cut short) carry no code.
  if (error instanceof Error && /multipart|unexpected end|boundary|terminated early/i.test(error.message)) {
    return Errors.validation('the multipart body is malformed', error.message);
  }
  return error;
}
