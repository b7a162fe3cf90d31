import { describe, expect, it } from 'vitest';
import { ExplicitDetector } from '../../../src/engine/safety/explicit.js';
import { SafetyFilter, SAFETY_PLAYBACK_THRESHOLD } from '../../../src/engine/safety/index.js';
import type { AudioFeatures } from '../../../src/engine/types.js';
import { Rng } from '../../../src/engine/random.js';
import { handwrittenCorpus } from '../../fixtures/lyrics-corpus.js';

const CLEAN_ORIGINAL = `Copper kettles singing on a borrowed stove
Every window in the attic full of cloves
We painted all the ceilings an impossible blue
And hung a paper moon for me and you`;

describe('explicit detection', () => {
  const detector = new ExplicitDetector();

  it('catches plain, leetspeak, stretched and spaced-out spellings, with positions', () => {
    for (const [text, term] of [
      ['what the fuck', 'fuck'],
      ['sh1t happens', 'shit'],
      ['fuuuuck this', 'fuck'],
      ['f u c k this', 'fuck'],
      ['s.h.i.t again', 'shit'],
      ['you wanker', 'wanker'],
    ]) {
      const r = detector.detect(text);
      expect(r.explicit, text).toBe(true);
      expect(r.terms, text).toContain(term);
      const m = r.matches.find((x) => x.term === term)!;
      expect(text.slice(m.start, m.end)).toBe(m.matchedText);
    }
    expect(detector.detect('I said f u c k').matches[0]).toMatchObject({ start: 7, end: 14 });
  });

  it('catches Spanish terms with or without accents', () => {
    expect(detector.detect('eres un cabrón').terms).toEqual(['cabrón']);
    expect(detector.detect('eres un cabron').terms).toEqual(['cabrón']);
    expect(detector.detect('qué mierda de día').terms).toEqual(['mierda']);
  });

  it('does not flag clean text with look-alike words', () => {
    for (const text of ['the pen is mightier than the sword', 'grapes on the class assassin', 'la computadora disputa el cono', CLEAN_ORIGINAL]) {
      expect(detector.detect(text).explicit, text).toBe(false);
    }
  });
});

describe('SafetyFilter lyrics', () => {
  const filter = new SafetyFilter({
    trainingLyrics: handwrittenCorpus(),
    catalogLyrics: [{ id: 'catalog-17', lines: ['Silver trains are sleeping in the rain tonight', 'Nobody is waiting at the station light'] }],
  });

  it('passes clean original text', () => {
    const r = filter.checkLyrics(CLEAN_ORIGINAL, { explicitAllowed: false });
    expect(r.safety_score).toBeGreaterThanOrEqual(SAFETY_PLAYBACK_THRESHOLD);
    expect(r.playable).toBe(true);
    expect(r.explicit_detected).toBe(false);
    expect(r.flagged_categories).toEqual([]);
  });

  it('catches a line copied from the training corpus despite case and punctuation changes', () => {
    const text = `${CLEAN_ORIGINAL}\nRAIN was drumming... on the OLD tin-roof!`;
    const r = filter.checkLyrics(text, { explicitAllowed: false });
    expect(r.flagged_categories).toContain('copyright_similarity');
    expect(r.safety_score).toBeLessThan(SAFETY_PLAYBACK_THRESHOLD);
    expect(r.details.copiedLines[0]).toMatchObject({ referenceId: 'tin-roof-summer', referenceLine: 'Rain was drumming on the old tin roof' });
  });

  it('catches a copied catalog line and a structure input, and partial 5-gram overlap raises similarity', () => {
    const r = filter.checkLyrics({ verse_1: CLEAN_ORIGINAL, chorus: 'silver trains are sleeping in the rain tonight' }, { explicitAllowed: false });
    expect(r.playable).toBe(false);
    expect(r.details.nearestReferenceId).toBe('catalog-17');
    const partial = filter.checkLyrics('oh my silver trains are sleeping in the rain again', { explicitAllowed: false });
    expect(partial.details.copyrightSimilarity).toBeGreaterThan(0);
  });

  it('explicit content fails when not allowed and passes when allowed', () => {
    const text = `${CLEAN_ORIGINAL}\nAnd all this sh1t is gone`;
    const strict = filter.checkLyrics(text, { explicitAllowed: false });
    expect(strict.explicit_detected).toBe(true);
    expect(strict.flagged_categories).toContain('explicit_language');
    expect(strict.safety_score).toBeLessThanOrEqual(0.5);
    const allowed = filter.checkLyrics(text, { explicitAllowed: true });
    expect(allowed.explicit_detected).toBe(true);
    expect(allowed.safety_score).toBeGreaterThanOrEqual(SAFETY_PLAYBACK_THRESHOLD);
  });
});

describe('SafetyFilter audio', () => {
  const features = (seed: number): AudioFeatures => {
    const values = Array.from(
      { length: 45 },
      (
        (rng) => () =>
          rng.next()
      )(new Rng(seed)),
    );
    const x = (i: number) => values[i];
    const chroma = Array.from({ length: 12 }, (_, i) => 0.2 + x(i));
    const sum = chroma.reduce((a, b) => a + b, 0);
    return {
      durationSec: 180,
      tempoBpm: 80 + 60 * x(40),
      tempoConfidence: 0.8,
      key: 'C',
      mode: seed % 2 ? 'major' : 'minor',
      keyConfidence: 0.7,
      chroma: chroma.map((c) => c / sum),
      mfccMean: Array.from({ length: 13 }, (_, i) => -20 + 40 * x(i + 12)),
      mfccStd: Array.from({ length: 13 }, (_, i) => 2 + 10 * x(i + 25)),
      loudnessDb: -20 + 10 * x(41),
      energy: x(42),
      spectralCentroidHz: 1000 + 2000 * x(43),
      onsetRate: 1 + 3 * x(44),
      beatChords: ['C', 'G'],
    };
  };
  const filter = new SafetyFilter({ catalogAudio: [1, 2, 3, 4].map((i) => ({ id: `master-${i}`, features: features(i) })) });

  it('catches an identical feature vector and names the catalog item', () => {
    const r = filter.checkAudio(features(3));
    expect(r.details.similarity).toBe(1);
    expect(r.details.nearestId).toBe('master-3');
    expect(r.flagged_categories).toEqual(['audio_duplicate']);
    expect(r.playable).toBe(false);
  });

  it('catches a lightly perturbed copy (same track re-analysed) and also a half-tempo reading', () => {
    const near = features(2);
    near.tempoBpm = near.tempoBpm / 2;
    near.mfccMean = near.mfccMean.map((m) => m + 0.5);
    expect(filter.checkAudio(near).flagged_categories).toEqual(['audio_duplicate']);
  });

  it('passes a different track', () => {
    const r = filter.checkAudio(features(99));
    expect(r.details.similarity).toBeLessThan(0.45);
    expect(r.safety_score).toBeGreaterThanOrEqual(SAFETY_PLAYBACK_THRESHOLD);
    expect(r.flagged_categories).toEqual([]);
  });
});
