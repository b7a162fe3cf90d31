/** What both EventBus adapters share: calling one handler so that its failure stays its own. */
import type { MessageHandler } from './event-bus.js';

export type BusErrorReporter = (error: unknown, channel: string) => void;

export class BusClosedError extends Error {
  constructor() {
    super('the event bus is closed');
    this.name = 'BusClosedError';
  }
}

export const reportToConsole: BusErrorReporter = (error, channel) => {
  console.error(`event bus handler failed on channel ${channel}`, error);
};

/**
 * Calls the handler and reports a throw or a rejected promise instead of letting it escape: the publisher
 * and the other subscribers of the channel never see one receiver's failure (STYLE: fan-out fails per target).
 */
export function deliverIsolated(handler: MessageHandler, message: unknown, channel: string, report: BusErrorReporter): void {
  try {
    // The port types handlers as returning void, but an async function fits that type too.
    const result = handler(message) as unknown;
    if (result instanceof Promise) result.catch((error: unknown) => safeReport(report, error, channel));
  } catch (error) {
    safeReport(report, error, channel);
  }
}

function safeReport(report: BusErrorReporter, error: unknown, channel: string): void {
  try {
    report(error, channel);
  } catch {
    // A broken reporter must not turn one handler's failure into everyone's.
  }
}
