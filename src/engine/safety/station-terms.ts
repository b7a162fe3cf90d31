/**
 * The station's own explicit-language terms, on top of obscenity's English dataset.
 *
 * Policy: words a broadcast standard treats as explicit that the English dataset lacks (British and
 * Spanish-language profanity, since the station plays Spanish lyrics), and nothing merely rude or
 * regional-ambiguous. Each term is matched as a whole word (obscenity's `|` boundary) after accents are
 * folded, so "cabrón" and "cabron" both match. Deliberately excluded: "coño" (folds to "cono", a cone),
 * "polla" (a chicken in much of Latin America), "coger" (to take, in Spain).
 *
 * To add a term: one entry, lower case, no accents in `pattern`; keep `word` as it is written.
 */

export interface StationTerm {
  /** The word as reported in matches. */
  word: string;
  /** obscenity pattern syntax: "|" = word boundary, "[x]" = optional, "?" = any character. */
  pattern: string;
  language: 'en' | 'es';
}

export const STATION_TERMS: readonly StationTerm[] = [
  // English terms missing from obscenity's dataset
  { word: 'wanker', pattern: '|wanker', language: 'en' },
  { word: 'bellend', pattern: '|bellend', language: 'en' },
  { word: 'tosser', pattern: '|tosser', language: 'en' },
  // Spanish
  { word: 'mierda', pattern: '|mierda', language: 'es' },
  { word: 'puta', pattern: '|puta', language: 'es' },
  { word: 'puto', pattern: '|puto', language: 'es' },
  { word: 'joder', pattern: '|joder|', language: 'es' },
  { word: 'jodido', pattern: '|jodid', language: 'es' },
  { word: 'cabrón', pattern: '|cabron', language: 'es' },
  { word: 'pendejo', pattern: '|pendej', language: 'es' },
  { word: 'gilipollas', pattern: '|gilipolla', language: 'es' },
  { word: 'chingar', pattern: '|chingad', language: 'es' },
  { word: 'chingar', pattern: '|chingar', language: 'es' },
  { word: 'verga', pattern: '|verga|', language: 'es' },
  { word: 'culero', pattern: '|culer', language: 'es' },
  { word: 'maricón', pattern: '|maricon', language: 'es' },
  { word: 'zorra', pattern: '|zorra|', language: 'es' },
];
