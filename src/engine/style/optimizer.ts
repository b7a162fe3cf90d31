/**
 * Adam with linear learning-rate warm-up. The state is plain arrays so it goes into the checkpoint and a
 * resumed run continues with exactly the moments it stopped with.
 */

export interface AdamState {
  step: number;
  m: number[];
  v: number[];
}

const BETA1 = 0.9;
const BETA2 = 0.999;
const EPSILON = 1e-8;

export function newAdamState(size: number): AdamState {
  return { step: 0, m: new Array<number>(size).fill(0), v: new Array<number>(size).fill(0) };
}

/** Learning rate at a 0-based step: ramps linearly over warmupSteps (0 disables warm-up), then constant. */
export function learningRateAt(step: number, baseRate: number, warmupSteps: number): number {
  return warmupSteps > 0 ? baseRate * Math.min(1, (step + 1) / warmupSteps) : baseRate;
}

/** One update in place; returns the learning rate used. */
export function adamStep(params: Float64Array, grad: Float64Array, state: AdamState, baseRate: number, warmupSteps: number): number {
  const rate = learningRateAt(state.step, baseRate, warmupSteps);
  state.step += 1;
  const correction1 = 1 - BETA1 ** state.step;
  const correction2 = 1 - BETA2 ** state.step;
  for (let i = 0; i < params.length; i++) {
    state.m[i] = BETA1 * state.m[i] + (1 - BETA1) * grad[i];
    state.v[i] = BETA2 * state.v[i] + (1 - BETA2) * grad[i] * grad[i];
    params[i] -= (rate * (state.m[i] / correction1)) / (Math.sqrt(state.v[i] / correction2) + EPSILON);
  }
  return rate;
}
