/**
 * The demo lyrics corpus: every song written for this project by the platform's own songwriters.
 * It is the only text the station's lyrics model learns from.
 */

import type { LyricsDocument } from '../../../engine/types.js';
import { juniperFerryLyrics } from './lyrics-juniper-ferry.js';
import { juniperFerryLyricsTwo } from './lyrics-juniper-ferry-2.js';
import { marisolVelvetHoursLyrics } from './lyrics-marisol-velvet-hours.js';
import { marisolVelvetHoursLyricsEs } from './lyrics-marisol-velvet-hours-es.js';
import { neonTidewaterLyrics } from './lyrics-neon-tidewater.js';
import { neonTidewaterLyricsTwo } from './lyrics-neon-tidewater-2.js';
import { quietRadiatorLyrics } from './lyrics-quiet-radiator.js';
import { quietRadiatorLyricsTwo } from './lyrics-quiet-radiator-2.js';
import { slowOrbitSocietyLyrics } from './lyrics-slow-orbit-society.js';

export const demoLyricsCorpus: LyricsDocument[] = [
  ...quietRadiatorLyrics,
  ...quietRadiatorLyricsTwo,
  ...neonTidewaterLyrics,
  ...neonTidewaterLyricsTwo,
  ...juniperFerryLyrics,
  ...juniperFerryLyricsTwo,
  ...marisolVelvetHoursLyrics,
  ...marisolVelvetHoursLyricsEs,
  ...slowOrbitSocietyLyrics,
];
