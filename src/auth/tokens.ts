/**
 * Access and short-lived MFA tokens as JWTs (jose, HS256 only). Verification pins the algorithm,
 * issuer, audience and token type, and reads time from the injected clock.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Clock } from '../infra/clock/clock.js';
import type { Role } from './scopes.js';

export const ACCESS_TOKEN_TTL_SEC = 15 * 60;
export const REFRESH_TOKEN_TTL_SEC = 7 * 24 * 3600;
export const MFA_TOKEN_TTL_SEC = 5 * 60;
const ISSUER = 'station';
const AUDIENCE = 'station-api';

export type TokenType = 'access' | 'mfa';

export interface AccessClaims {
  userId: string;
  role: Role;
  sessionId: string;
  typ: TokenType;
}

/** Claims of a verified token, with its id (jti): the 2FA step counts attempts per temp_token by it. */
export interface VerifiedClaims extends AccessClaims {
  tokenId: string;
}

export class TokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'token expired' : 'token invalid');
  }
}

/** How many verified tokens are remembered; beyond this the cache starts over (it only saves work). */
const VERIFIED_CACHE_SIZE = 20_000;

export class TokenService {
  /**
   * Tokens whose signature and claims were already verified, until they expire. Verifying the same
   * string again can only give the same answer, so this skips the HMAC and claim checks on the hot path;
   * expiry is still checked against the clock on every use, and revocation by the session check.
   */
  private readonly verified = new Map<string, { claims: VerifiedClaims; expMs: number }>();

  constructor(
    private readonly key: Uint8Array,
    private readonly clock: Clock,
  ) {}

  issue(claims: Omit<AccessClaims, 'typ'>, typ: TokenType = 'access'): Promise<string> {
    const now = Math.floor(this.clock.now() / 1000);
    const ttl = typ === 'access' ? ACCESS_TOKEN_TTL_SEC : MFA_TOKEN_TTL_SEC;
    return new SignJWT({ role: claims.role, sid: claims.sessionId, typ })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + ttl)
      .setJti(randomBytes(9).toString('base64url'))
      .sign(this.key);
  }

  async verify(token: string, expectedType: TokenType): Promise<VerifiedClaims> {
    const cached = this.verified.get(token);
    if (cached && cached.claims.typ === expectedType) {
      if (cached.expMs > this.clock.now()) return cached.claims;
      this.verified.delete(token);
      throw new TokenError('expired');
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: new Date(this.clock.now()),
        requiredClaims: ['exp', 'sub', 'iat', 'jti'],
      });
      if (payload.typ !== expectedType || typeof payload.sid !== 'string' || typeof payload.role !== 'string') {
        throw new TokenError('invalid');
      }
      const claims: VerifiedClaims = {
        userId: payload.sub as string,
        role: payload.role as Role,
        sessionId: payload.sid,
        typ: expectedType,
        tokenId: payload.jti as string,
      };
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.clear();
      this.verified.set(token, { claims, expMs: (payload.exp as number) * 1000 });
      return claims;
    } catch (error) {
      if (error instanceof TokenError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw new TokenError('expired');
      throw new TokenError('invalid');
    }
  }
}

/** Opaque random secrets (refresh tokens, API keys) and their stored form. */
export function newOpaqueToken(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * CSRF tokens are derived from the credential (login session or API key) with a server secret:
 * stateless, stable for the credential's life, and useless with any other credential.
 */
export class CsrfTokens {
  constructor(private readonly key: Buffer) {}

  forCredential(credentialId: string): string {
    return createHmac('sha256', this.key).update(`csrf:${credentialId}`).digest('base64url');
  }

  matches(credentialId: string, presented: string | undefined): boolean {
    if (!presented) return false;
    const expected = Buffer.from(this.forCredential(credentialId));
    const given = Buffer.from(presented);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
