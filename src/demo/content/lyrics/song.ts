import type { LyricsDocument } from '../../../engine/types.js';

type SongMeta = Omit<LyricsDocument, 'sections'>;

/**
 * Builds a `LyricsDocument` from an ordered record of sections (`{ verse_1: [...], chorus: [...] }`),
 * which keeps the corpus files readable: one lyric line per source line, little punctuation noise.
 */
export function song(meta: SongMeta, sections: Record<string, string[]>): LyricsDocument {
  return {
    ...meta,
    sections: Object.entries(sections).map(([name, lines]) => ({ name, lines })),
  };
}
