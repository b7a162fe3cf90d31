import { describe, expect, it } from 'vitest';
import { parseStructure } from '../../../src/engine/lyrics/structure.js';
import { InvalidStructureError, UnknownSectionError } from '../../../src/engine/lyrics/errors.js';

describe('parseStructure', () => {
  it('numbers verses and keeps one key for the repeated chorus', () => {
    const s = parseStructure('verse-chorus-verse-chorus-bridge-chorus');
    expect(s.order).toEqual(['verse_1', 'chorus', 'verse_2', 'chorus', 'bridge', 'chorus']);
    expect(s.keys).toEqual(['verse_1', 'chorus', 'verse_2', 'bridge']);
    expect(s.kinds).toMatchObject({ verse_1: 'verse', chorus: 'chorus', bridge: 'bridge' });
  });

  it('reads hyphenated pre-chorus, other separators, case and numbered input', () => {
    expect(parseStructure('Intro, Verse_1 | pre-chorus | CHORUS-verse-pre_chorus-chorus-outro').order).toEqual([
      'intro',
      'verse_1',
      'pre_chorus',
      'chorus',
      'verse_2',
      'pre_chorus',
      'chorus',
      'outro',
    ]);
  });

  it('numbers a non-repeating section only when it occurs twice', () => {
    expect(parseStructure('verse-bridge-chorus-bridge').order).toEqual(['verse_1', 'bridge_1', 'chorus', 'bridge_2']);
  });

  it('rejects unknown section names with a typed error', () => {
    expect(() => parseStructure('verse-choros-verse')).toThrow(UnknownSectionError);
    try {
      parseStructure('verse-solo');
    } catch (e) {
      expect((e as UnknownSectionError).section).toBe('solo');
      expect((e as UnknownSectionError).code).toBe('UNKNOWN_SECTION');
    }
  });

  it('rejects empty and over-long structures', () => {
    expect(() => parseStructure('  ')).toThrow(InvalidStructureError);
    expect(() => parseStructure(Array(20).fill('verse').join('-'))).toThrow(InvalidStructureError);
  });
});
