/**
 * How two consecutive tracks overlap on air. `crossfade_sec` is the overlap asked for; each track's quiet
 * intro and outro (engine/audio/track-analysis.ts) shape it, the way a presenter would ride the faders:
 *
 * | outgoing ends   | incoming starts | overlap                            | fades                          |
 * |-----------------|-----------------|------------------------------------|--------------------------------|
 * | loud            | loud            | L                                  | both, equal power, over L      |
 * | quietly (outro) | loud            | min(L, outro): only under its tail | incoming fades in; outgoing's own fade-out is the shape |
 * | loud            | quietly (intro) | L                                  | outgoing fades out; incoming's own fade-in is the shape |
 * | quietly         | quietly         | min(L, max(outro, intro))          | none: both tracks' own fades   |
 *
 * L is `crossfade_sec`, at most a third of either track (a 4-second jingle keeps most of itself). Below
 * SPLICE_SEC the tracks are butt-spliced; every track still fades in and out over DECLICK_SEC at its very
 * edges (voice.ts), so no join clicks whatever the plan. Equal-power curves (sine in, cosine out) keep the
 * summed level steady across the overlap for uncorrelated material.
 */

/** The shortest overlap: below this two tracks are spliced end to start. */
export const SPLICE_SEC = 0.01;
/** Every track's first and last samples ramp over this long, so a splice never steps. */
export const DECLICK_SEC = 0.005;
/** A quiet intro or outro shorter than this (or than the overlap, if shorter) does not count. */
export const QUIET_MIN_SEC = 0.5;

export interface OutgoingEdge {
  /** Length of its sound (leading and trailing silence left out). */
  lengthSec: number;
  outroSec: number;
}

export interface IncomingEdge {
  lengthSec: number;
  introSec: number;
}

export interface CrossfadePlan {
  /** The incoming track's first sound starts this long before the outgoing track's last sound. */
  overlapSec: number;
  /** Equal-power fade applied to the outgoing track's last fadeOutSec (0: it ends by itself). */
  fadeOutSec: number;
  /** Equal-power fade applied to the incoming track's first fadeInSec (0: it starts by itself). */
  fadeInSec: number;
  shape: 'splice' | 'both' | 'outgoing_quiet' | 'incoming_quiet' | 'both_quiet';
}

export function planCrossfade(outgoing: OutgoingEdge, incoming: IncomingEdge, crossfadeSec: number): CrossfadePlan {
  const length = Math.min(Math.max(0, crossfadeSec), outgoing.lengthSec / 3, incoming.lengthSec / 3);
  if (length < SPLICE_SEC) return { overlapSec: 0, fadeOutSec: 0, fadeInSec: 0, shape: 'splice' };
  const quietMin = Math.min(QUIET_MIN_SEC, length);
  const outgoingQuiet = outgoing.outroSec >= quietMin;
  const incomingQuiet = incoming.introSec >= quietMin;
  if (outgoingQuiet && incomingQuiet) {
    return { overlapSec: Math.min(length, Math.max(outgoing.outroSec, incoming.introSec)), fadeOutSec: 0, fadeInSec: 0, shape: 'both_quiet' };
  }
  if (outgoingQuiet) {
    const overlap = Math.min(length, outgoing.outroSec);
    return { overlapSec: overlap, fadeOutSec: 0, fadeInSec: overlap, shape: 'outgoing_quiet' };
  }
  if (incomingQuiet) return { overlapSec: length, fadeOutSec: length, fadeInSec: 0, shape: 'incoming_quiet' };
  return { overlapSec: length, fadeOutSec: length, fadeInSec: length, shape: 'both' };
}

/**
 * The on-air gain (dB) that brings a track to `targetLufs`: a cut whatever its peaks, a boost only as far
 * as its true peak stays under `ceilingDbtp` (the output limiter catches what a crossfade's sum adds).
 * Silence, or an unmeasured track, airs as it is.
 */
export function normalisationGainDb(loudnessLufs: number | null, truePeakDbtp: number | null, targetLufs: number, ceilingDbtp: number): number {
  if (loudnessLufs === null) return 0;
  const wanted = targetLufs - loudnessLufs;
  const headroom = truePeakDbtp === null ? wanted : ceilingDbtp - truePeakDbtp;
  return Math.min(wanted, Math.max(headroom, 0));
}
