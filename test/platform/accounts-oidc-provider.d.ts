/** oidc-provider (dev dependency, the real OpenID Provider the sign-in tests run against) ships no types: the parts used. */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface InteractionDetails {
    uid: string;
    params: Record<string, unknown>;
    prompt: { name: string; details: Record<string, unknown> };
  }
  class Grant {
    constructor(options: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    Grant: typeof Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: Record<string, unknown>): Promise<void>;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
