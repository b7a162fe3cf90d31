/**
 * The built-in sandbox processor: the embedded default, and always the processor of test-key requests. It
 * never contacts anything. A checkout is a page we serve ourselves (src/platform/store/sandbox-pages.ts):
 * the buyer opens the checkout_url, presses "Pay", and the page POSTs back with the signed token from the
 * URL; that completes the payment. Tokens are HMAC-SHA256 over the purpose, the session and the expiry.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../clock/clock.js';
import type {
  CancellationTiming,
  CheckoutCreated,
  CheckoutRequest,
  OnboardingLink,
  OnboardingRequest,
  PaymentProcessor,
  SubscriptionCheckoutRequest,
} from './processor.js';

export const SANDBOX_PAGE_PREFIX = '/v1/store/sandbox';
/** Where the sandbox's subscription checkout pages are served (src/platform/subscriptions/routes.ts). */
export const SANDBOX_SUBSCRIPTION_PAGE_PREFIX = '/v1/subscriptions/sandbox';
/** How long a sandbox checkout page can be paid. */
export const SANDBOX_TOKEN_TTL_SEC = 24 * 3600;

type Purpose = 'checkout' | 'onboarding' | 'subscription';

export class SandboxProcessor implements PaymentProcessor {
  readonly name = 'sandbox' as const;
  readonly requiresPayoutAccount = false;

  constructor(
    private readonly secret: Buffer,
    private readonly baseUrl: string,
    private readonly clock: Clock,
  ) {}

  async createCheckout(request: CheckoutRequest): Promise<CheckoutCreated> {
    // Derived from our session id, so creating it twice (a retry) gives the same session.
    const processorSessionId = `sbx_cs_${request.sessionId.replace(/-/g, '')}`;
    const token = this.sign('checkout', processorSessionId);
    return { processorSessionId, checkoutUrl: `${this.baseUrl}${SANDBOX_PAGE_PREFIX}/checkout/${processorSessionId}?token=${token}` };
  }

  async createSubscriptionCheckout(request: SubscriptionCheckoutRequest): Promise<CheckoutCreated> {
    const processorSessionId = `sbx_sub_${request.subscriptionId.replace(/-/g, '')}`;
    const token = this.sign('subscription', processorSessionId);
    return { processorSessionId, checkoutUrl: `${this.baseUrl}${SANDBOX_SUBSCRIPTION_PAGE_PREFIX}/checkout/${processorSessionId}?token=${token}` };
  }

  /** The sandbox bills nothing, so there is no period to wait for: the subscription ends now. */
  async cancelSubscription(): Promise<CancellationTiming> {
    return 'now';
  }

  async createOnboardingLink(request: OnboardingRequest): Promise<OnboardingLink> {
    const accountId = request.existingAccountId ?? `sbx_acct_${request.artistId.replace(/-/g, '')}`;
    const token = this.sign('onboarding', accountId);
    const { exp } = parseToken(token)!;
    return { accountId, url: `${this.baseUrl}${SANDBOX_PAGE_PREFIX}/onboarding/${accountId}?token=${token}`, expiresAt: new Date(exp * 1000) };
  }

  /** True when `token` was signed by us for this purpose and id and has not expired. */
  verify(purpose: Purpose, id: string, token: string | undefined): boolean {
    const parsed = parseToken(token);
    if (!parsed) return false;
    const expected = Buffer.from(this.signature(purpose, id, parsed.exp));
    const given = Buffer.from(parsed.sig);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return false;
    return parsed.exp * 1000 > this.clock.now();
  }

  private sign(purpose: Purpose, id: string): string {
    const exp = Math.floor(this.clock.now() / 1000) + SANDBOX_TOKEN_TTL_SEC;
    return `${exp}.${this.signature(purpose, id, exp)}`;
  }

  private signature(purpose: Purpose, id: string, exp: number): string {
    return createHmac('sha256', this.secret).update(`sandbox-${purpose}\n${id}\n${exp}`).digest('base64url');
  }
}

function parseToken(token: string | undefined): { exp: number; sig: string } | null {
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token ?? '');
  return match ? { exp: Number(match[1]), sig: match[2] } : null;
}
