/**
 * OAuth 2.0 protocol errors (RFC 6749 sections 4.1.2.1 and 5.2). The token endpoint answers them as
 * `{"error","error_description"}` rather than the platform's envelope, because that is what OAuth client
 * libraries read; the authorization endpoint sends them back to the app in its redirect_uri.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'server_error';

export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  /** 401 for a client that failed to authenticate (RFC 6749 section 5.2), 400 for everything else. */
  get status(): number {
    return this.error === 'invalid_client' ? 401 : this.error === 'server_error' ? 500 : 400;
  }

  body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

export const invalidGrant = (description: string) => new OAuthError('invalid_grant', description);
export const invalidRequest = (description: string) => new OAuthError('invalid_request', description);
export const invalidClient = (description = 'client authentication failed') => new OAuthError('invalid_client', description);
