/**
 * Orchestration by section: which parts play where, and how hard. The parts are written for the whole
 * form (bass.ts, drums.ts ...); this pass thins and shapes them so that the song moves (issue 18 measured
 * verse, chorus and bridge within ±1.5 dB of each other and intros jumping 8-12 dB in one bar):
 *
 *   intro    builds over its bars: chords, pad, bass and kick from a soft start, the snare from its
 *            second half;
 *   verse 1  sparse: kick, snare and bass under the melody, no hats, no pad;
 *   verse 2+ the full kit, still no pad;
 *   chorus   everything, pad included, at full level; a rising snare fill on the bar before it;
 *   bridge   a breakdown: the kick on the downbeats only (the kit back on its last bar), the bass on the
 *            downbeats only;
 *   outro    the kit leaves after its first half, the lead instrument leaves, levels fall.
 *
 * Levels: a velocity factor per section on top of that (GM SoundFont velocity curves make level roughly
 * 40·log10 of it: 0.8 is about -4 dB), tuned so that neighbouring sections differ by 3-6 dB on the render
 * (bench/arrangement.ts). Ambient keeps its drones; only its levels move.
 */
import type { Part, ScoreNote, Section } from './score.js';
import type { GenreFamily } from './style.js';

const KICK = 36;
const SNARE = 38;
const CRASH = 49;
const HATS_AND_CYMBALS = new Set([42, 44, 46, 51, 70, 49]);

/** Velocity factor by section (first verse and later verses apart). */
const LEVEL = { intro: 0.8, verse1: 0.8, verse: 0.86, chorus: 1, bridge: 0.84, outro: 0.85 } as const;

export function arrangeBySection(parts: Part[], sections: readonly Section[], family: GenreFamily): Part[] {
  const sectionAt = (beat: number) => sections.find((s) => beat >= s.startBar * 4 && beat < (s.startBar + s.bars) * 4) ?? sections[sections.length - 1];
  const firstVerse = sections.find((s) => s.name === 'verse');
  const hasKit = parts.some((p) => p.role === 'drums' && p.notes.length > 0);

  const arranged = parts.map((part) => {
    const notes: ScoreNote[] = [];
    for (const note of part.notes) {
      const section = sectionAt(note.startBeat);
      const barInSection = Math.floor(note.startBeat / 4) - section.startBar;
      const lastBar = barInSection === section.bars - 1;
      const keep = family === 'ambient' || plays(part.role, note, section, section === firstVerse, barInSection, lastBar);
      if (!keep) continue;
      const factor = levelOf(section, section === firstVerse, barInSection);
      notes.push({ ...note, velocity: Math.max(1, Math.min(127, Math.round(note.velocity * factor))) });
    }
    return { ...part, notes };
  });

  if (hasKit) {
    const drums = arranged.find((p) => p.role === 'drums')!;
    for (const section of sections) {
      if (section.name !== 'chorus' || section.startBar === 0) continue;
      // A rising snare fill over the bar before every chorus (a riser the GM kit can play), the crash on one.
      const start = (section.startBar - 1) * 4;
      drums.notes = drums.notes.filter((n) => n.startBeat < start || n.startBeat >= start + 4 || n.midi === KICK);
      for (let i = 0; i < 16; i++) drums.notes.push({ midi: SNARE, startBeat: start + i / 4, durationBeats: 0.25, velocity: Math.round(40 + (70 * i) / 15) });
      if (!drums.notes.some((n) => n.midi === CRASH && n.startBeat === section.startBar * 4))
        drums.notes.push({ midi: CRASH, startBeat: section.startBar * 4, durationBeats: 1, velocity: 96 });
    }
    drums.notes.sort((a, b) => a.startBeat - b.startBeat || a.midi - b.midi);
  }
  return arranged.filter((p) => p.notes.length > 0);
}

function plays(role: Part['role'], note: ScoreNote, section: Section, isFirstVerse: boolean, barInSection: number, lastBar: boolean): boolean {
  switch (section.name) {
    case 'intro':
      // The kick from the start, the snare for the intro's second half (the verse adds the lead, the chorus the rest).
      if (role === 'drums') return note.midi === KICK || (barInSection >= Math.floor(section.bars / 2) && !HATS_AND_CYMBALS.has(note.midi));
      return role !== 'melody' || section.bars <= 1;
    case 'verse':
      if (role === 'pad') return false;
      if (role === 'drums' && isFirstVerse) return !HATS_AND_CYMBALS.has(note.midi);
      return true;
    case 'chorus':
      return true;
    case 'bridge':
      // Breakdown: the kick on the downbeats only, the whole kit back on the last bar (the fill).
      if (role === 'drums') return lastBar || (note.midi === KICK && note.startBeat % 4 === 0);
      if (role === 'bass') return note.startBeat % 4 === 0;
      return true;
    case 'outro':
      if (role === 'drums') return barInSection < section.bars / 2;
      return role !== 'melody';
  }
}

function levelOf(section: Section, isFirstVerse: boolean, barInSection: number): number {
  if (section.name === 'intro') {
    // From about -2.5 dB under the verse's level up to it over the intro's bars: a build, not a jump.
    const t = section.bars > 1 ? barInSection / (section.bars - 1) : 1;
    return 0.7 + (LEVEL.intro - 0.7) * t;
  }
  if (section.name === 'verse') return isFirstVerse ? LEVEL.verse1 : LEVEL.verse;
  return LEVEL[section.name];
}
