/**
 * POST /v1/tracks by XMLHttpRequest, the one browser API that reports an upload's progress (fetch does not).
 * Same credential rules as the shared client: bearer token and X-CSRF-Token, the error envelope turned into an
 * ApiError, and one retry after renewing the login on a 401.
 */
import { ApiError, type ErrorEnvelope } from '../shared/api';
import { session } from '../shared/platform-session';
import type { ManagedTrack } from './types';

export interface UploadProgress {
  loaded: number;
  total: number;
}

function send(form: FormData, onProgress: (p: UploadProgress) => void, signal?: AbortSignal): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const credential = session.current();
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/v1/tracks');
    xhr.setRequestHeader('accept', 'application/json');
    if (credential) {
      xhr.setRequestHeader('authorization', `Bearer ${credential.token}`);
      xhr.setRequestHeader('x-csrf-token', credential.csrf);
    }
    xhr.upload.onprogress = (event) => onProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : 0 });
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.responseText });
    xhr.onerror = () => reject(new Error('The upload could not reach the server: check your connection and try again'));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

export async function uploadTrack(form: FormData, onProgress: (p: UploadProgress) => void, signal?: AbortSignal): Promise<ManagedTrack> {
  let answer = await send(form, onProgress, signal);
  if (answer.status === 401 && (await session.renew())) answer = await send(form, onProgress, signal);
  if (answer.status >= 200 && answer.status < 300) return JSON.parse(answer.body) as ManagedTrack;
  let envelope: ErrorEnvelope | null = null;
  try {
    envelope = (JSON.parse(answer.body) as { error?: ErrorEnvelope }).error ?? null;
  } catch {
    // not JSON (a proxy's page): the status says enough
  }
  throw new ApiError(answer.status, envelope, `The server answered ${answer.status}`);
}

/** What a person should read for a refused upload: the server's reason, with what to do about it. */
export function uploadErrorText(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  const reason = error.describe();
  switch (error.status) {
    case 415:
      return `This file is not audio the studio takes (MP3, WAV, FLAC or AIFF). ${reason}`;
    case 413:
      return `This file is too large. ${reason}`;
    case 400:
      return `This file cannot be used. ${reason}`;
    case 429:
      return `Too many uploads at once${error.retryAfter ? `: try again in ${error.retryAfter} s` : ''}. ${reason}`;
    case 408:
      return `The upload took too long to arrive. ${reason}`;
    default:
      return reason;
  }
}
