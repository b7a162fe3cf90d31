/**
 * Catalog or AI for each slot. An error-diffusion accumulator (the idea of Bresenham's line) spreads AI
 * slots evenly: the running total never drifts more than half a slot from the ratio, so any window of
 * consecutive slots holds the ratio's share within one slot, which random draws cannot promise.
 */
/** How many slots the leader keeps planned (and the listener API's queue shows). */
export const QUEUE_TARGET = 5;

export type SlotOrigin = 'catalog' | 'ai_generated';

export interface PlannedOrigin {
  origin: SlotOrigin;
  /** The accumulator after this slot, in [-0.5, 0.5); persist it so the pattern survives a restart. */
  credit: number;
}

export function nextOrigin(credit: number, aiRatio: number): PlannedOrigin {
  const ratio = Math.min(1, Math.max(0, aiRatio));
  const total = credit + ratio;
  return total >= 0.5 ? { origin: 'ai_generated', credit: total - 1 } : { origin: 'catalog', credit: total };
}

export function planOrigins(count: number, aiRatio: number, credit = 0): PlannedOrigin[] {
  const planned: PlannedOrigin[] = [];
  for (let i = 0; i < count; i++) {
    const next = nextOrigin(credit, aiRatio);
    planned.push(next);
    credit = next.credit;
  }
  return planned;
}
