/**
 * Held-out perplexity of the Kneser-Ney model, the neural model and their 50/50 mixture, over exactly the
 * same predicted tokens (every non-`<s>` token of the padded held-out sequences).
 */
import type { KneserNeyModel } from './kneser-ney.js';
import type { NeuralLm } from './neural-lm.js';
import { Vocabulary } from './vocabulary.js';

export function evaluatePerplexities(
  kn: KneserNeyModel,
  neural: NeuralLm | null,
  heldOut: readonly number[][],
  order: number,
): { kneserNey: number; neural: number | null; interpolated: number | null } {
  let knLog = 0;
  let nnLog = 0;
  let mixLog = 0;
  let tokens = 0;
  for (const seq of heldOut) {
    for (let i = order - 1; i < seq.length; i++) {
      if (seq[i] === Vocabulary.BOS_ID) continue;
      const history = seq.slice(0, i);
      const pKn = kn.probability(seq[i], history.slice(-(order - 1)));
      knLog += Math.log(pKn);
      if (neural) {
        const pNn = Math.exp(neural.logProbs(history)[seq[i]]);
        nnLog += Math.log(pNn);
        mixLog += Math.log(0.5 * pKn + 0.5 * pNn);
      }
      tokens++;
    }
  }
  const ppl = (log: number) => Math.exp(-log / Math.max(1, tokens));
  return { kneserNey: ppl(knLog), neural: neural ? ppl(nnLog) : null, interpolated: neural ? ppl(mixLog) : null };
}
