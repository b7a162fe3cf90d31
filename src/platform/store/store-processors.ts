/** The payment processor a store request uses, shared by checkout and payout onboarding. */
import type { PaymentProcessor } from '../../infra/payments/processor.js';
import { processorFor, type PaymentProcessors } from '../../infra/payments/processors.js';
import { noLivePaymentProcessor, type StoreCaller } from './store.types.js';

/**
 * The processor of a request: the sandbox in the sandbox's data space; Stripe in the live one, or the sandbox
 * for a demo store (never live money); 503 when live payments have no processor here.
 */
export function processorOfCaller(processors: PaymentProcessors, caller: StoreCaller, what: string): { processor: PaymentProcessor; livemode: boolean } {
  const choice = processorFor(processors, caller.environment);
  if (!choice) throw noLivePaymentProcessor(what);
  return choice;
}
