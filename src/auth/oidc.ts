/**
 * Sign-in through an OpenID Connect provider (OIDC_ISSUER / OIDC_CLIENT_ID / OIDC_CLIENT_SECRET), with
 * openid-client: discovery of the issuer's metadata (cached; retried after a failure), then the
 * authorization code grant with PKCE on the code the client brings back, and the ID token's signature,
 * issuer, audience, expiry and nonce checked by the library. Only `sub`, `email`, `email_verified` and
 * `name` are used, from the ID token or, when it carries no e-mail, from the userinfo endpoint. An http:// issuer is accepted only on a loopback host (a provider run next to the
 * server, as in the tests); anywhere else the issuer must be https.
 */
import * as client from 'openid-client';
import { DomainError } from '../errors.js';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
}

export interface AuthorizationResponse {
  code: string;
  redirectUri: string;
  codeVerifier: string;
  state?: string;
  nonce?: string;
  /** RFC 9207 `iss` of the authorization response; the configured issuer when the client does not pass it on. */
  iss?: string;
}

export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export const identityRefused = (detail: string) =>
  new DomainError('unauthenticated', 'INVALID_CREDENTIALS', 'The identity provider did not confirm this sign-in', detail);

export class OidcSignIn {
  private configuration: Promise<client.Configuration> | null = null;

  constructor(private readonly settings: OidcSettings) {}

  get issuer(): string {
    return this.settings.issuer;
  }

  /** Redeems the code at the provider and returns the verified identity; INVALID_CREDENTIALS when the provider refuses. */
  async redeem(response: AuthorizationResponse): Promise<VerifiedIdentity> {
    const config = await this.discover();
    const callback = new URL(response.redirectUri);
    callback.searchParams.set('code', response.code);
    if (response.state !== undefined) callback.searchParams.set('state', response.state);
    callback.searchParams.set('iss', response.iss ?? config.serverMetadata().issuer);
    let tokens;
    try {
      tokens = await client.authorizationCodeGrant(
        config,
        callback,
        {
          pkceCodeVerifier: response.codeVerifier,
          expectedState: response.state,
          expectedNonce: response.nonce,
          idTokenExpected: true,
        },
        { redirect_uri: response.redirectUri },
      );
    } catch (error) {
      // The provider's or the library's text may quote the code or the token: only its kind goes out.
      const code = (error as { code?: unknown; error?: unknown }).error ?? (error as { code?: unknown }).code;
      throw identityRefused(typeof code === 'string' ? code : 'the authorization code was refused');
    }
    const idClaims = tokens.claims();
    if (!idClaims) throw identityRefused('no ID token');
    let claims: Record<string, unknown> = idClaims;
    // Providers that keep profile claims out of the ID token (OIDC Core 5.4) serve them at userinfo, checked against its sub.
    if (typeof idClaims.email !== 'string' && tokens.access_token) {
      try {
        claims = { ...(await client.fetchUserInfo(config, tokens.access_token, String(idClaims.sub))), iss: idClaims.iss, sub: idClaims.sub };
      } catch {
        throw identityRefused('the userinfo endpoint did not confirm the identity');
      }
    }
    return {
      issuer: String(claims.iss),
      subject: String(claims.sub),
      email: typeof claims.email === 'string' ? claims.email.toLowerCase() : null,
      emailVerified: claims.email_verified === true,
      name: typeof claims.name === 'string' && claims.name.trim() !== '' ? claims.name.trim().slice(0, 80) : null,
    };
  }

  private discover(): Promise<client.Configuration> {
    if (!this.configuration) {
      const issuer = new URL(this.settings.issuer);
      const insecure = issuer.protocol === 'http:';
      if (insecure && !LOOPBACK.has(issuer.hostname)) {
        return Promise.reject(
          new DomainError(
            'unavailable',
            'IDENTITY_PROVIDER_UNAVAILABLE',
            'Sign-in with the identity provider is misconfigured',
            'OIDC_ISSUER must be https (http only on a loopback host)',
          ),
        );
      }
      this.configuration = client
        .discovery(
          issuer,
          this.settings.clientId,
          this.settings.clientSecret ?? undefined,
          this.settings.clientSecret ? client.ClientSecretBasic(this.settings.clientSecret) : client.None(),
          insecure ? { execute: [client.allowInsecureRequests], timeout: 10 } : { timeout: 10 },
        )
        .catch((error: unknown) => {
          this.configuration = null; // the next sign-in tries again
          throw new DomainError(
            'unavailable',
            'IDENTITY_PROVIDER_UNAVAILABLE',
            'The identity provider cannot be reached',
            String((error as Error)?.name ?? ''),
            30,
          );
        });
    }
    return this.configuration;
  }
}
