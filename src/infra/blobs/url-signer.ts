/**
 * Time-limited links to blobs: /media/<key>?exp=<unix seconds>&sig=<hmac>. The HMAC covers the key and
 * the expiry, so neither can be altered; comparison is constant-time.
 *
 * With a presigner (STATION_MEDIA_LINKS=presigned) sign() hands out the object store's own presigned URLs
 * instead, and the store (or a CDN in front of it) serves them; verify() still checks /media links, so links
 * handed out before the switch keep working until they expire.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock/clock.js';
import { MAX_PRESIGN_SEC, type Presigner } from './s3-presigner.js';

export const MEDIA_PREFIX = '/media/';

export interface SignedUrl {
  url: string;
  expiresAt: Date;
}

/** Expiry times are rounded up to this step, so a link is stable (and cacheable) for that long. */
const EXPIRY_STEP_SEC = 600;
const MEMO_SIZE = 10_000;

export class UrlSigner {
  /** Signatures already computed for (key, expiry): hot catalog answers sign the same links again and again. */
  private readonly memo = new Map<string, string>();

  constructor(
    private readonly secret: Buffer,
    private readonly baseUrl: string,
    private readonly clock: Clock,
    private readonly presigner: Presigner | null = null,
  ) {}

  private signature(key: string, exp: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${exp}`).digest('base64url');
  }

  private mediaLink(key: string, exp: number): string {
    const path = key.split('/').map(encodeURIComponent).join('/');
    return `${this.baseUrl}${MEDIA_PREFIX}${path}?exp=${exp}&sig=${this.signature(key, exp)}`;
  }

  /** A link valid for at least ttlSeconds (at most EXPIRY_STEP_SEC longer). */
  sign(key: string, ttlSeconds: number): SignedUrl {
    const now = Math.floor(this.clock.now() / 1000);
    // A presigned link is signed at the start of the current step, so it too is the same link for a while.
    const signedAt = Math.floor(now / EXPIRY_STEP_SEC) * EXPIRY_STEP_SEC;
    let exp = Math.ceil((now + ttlSeconds) / EXPIRY_STEP_SEC) * EXPIRY_STEP_SEC;
    if (this.presigner) exp = Math.min(exp, signedAt + MAX_PRESIGN_SEC);
    const memoKey = this.presigner ? `${signedAt}:${exp}:${key}` : `${exp}:${key}`;
    let url = this.memo.get(memoKey);
    if (!url) {
      url = this.presigner ? this.presigner.presign(key, signedAt, exp) : this.mediaLink(key, exp);
      if (this.memo.size >= MEMO_SIZE) this.memo.clear();
      this.memo.set(memoKey, url);
    }
    return { url, expiresAt: new Date(exp * 1000) };
  }

  /** True when the link is intact and not expired. */
  verify(key: string, exp: string | undefined, sig: string | undefined): boolean {
    if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return false;
    const expected = Buffer.from(this.signature(key, Number(exp)));
    const given = Buffer.from(sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    return Number(exp) * 1000 > this.clock.now();
  }
}
