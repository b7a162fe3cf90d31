/**
 * Time-limited links to blobs: /media/<key>?exp=<unix seconds>&sig=<hmac>. The HMAC covers the key and
 * the expiry, so neither can be altered; comparison is constant-time.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock/clock.js';

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
  ) {}

  private signature(key: string, exp: number): string {
    return createHmac('sha256', this.secret).update(`${key}\n${exp}`).digest('base64url');
  }

  /** A link valid for at least ttlSeconds (at most EXPIRY_STEP_SEC longer). */
  sign(key: string, ttlSeconds: number): SignedUrl {
    const exp = Math.ceil((Math.floor(this.clock.now() / 1000) + ttlSeconds) / EXPIRY_STEP_SEC) * EXPIRY_STEP_SEC;
    const memoKey = `${exp}:${key}`;
    let url = this.memo.get(memoKey);
    if (!url) {
      const path = key.split('/').map(encodeURIComponent).join('/');
      url = `${this.baseUrl}${MEDIA_PREFIX}${path}?exp=${exp}&sig=${this.signature(key, exp)}`;
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
