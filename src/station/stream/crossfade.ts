/**
 * How two consecutive tracks overlap on air: segues like a radio. `crossfade_sec` (L) is the overlap; the
 * outgoing track's quiet outro (its tail more than QUIET_DB under its body, engine/audio/track-analysis.ts)
 * sets where the next one comes in, the incoming track's quiet intro whether it gets a fade of its own:
 *
 * | outgoing ends          | incoming starts  | the incoming comes in          | fades                                  |
 * |------------------------|------------------|--------------------------------|----------------------------------------|
 * | loud                   | loud             | L before the outgoing's end    | both, equal power, over L              |
 * | quietly (outro > L)    | either           | where its outro begins: the    | the outgoing fades out over L from     |
 * |                        |                  | segue point                    | there; the rest of its fade never airs |
 * | either                 | quietly (intro)  | as above                       | the outgoing fades out; the incoming's |
 * |                        |                  |                                | intro rises by itself, lifted (voice)  |
 *
 * The overlap is always L (at most a third of either track: a 4-second jingle keeps most of itself), and
 * what is cut from the outgoing track's tail is at most a third of it. Before, a track's own fade-out played
 * to its end and the next track came in only under its last quiet seconds: every join sagged for 4-14 s.
 * Below SPLICE_SEC the tracks are butt-spliced; every track still fades in and out over DECLICK_SEC at its
 * very edges (voice.ts), so no join clicks whatever the plan. Equal-power curves (sine in, cosine out) keep
 * the summed level steady across the overlap for uncorrelated material.
 */

/** The shortest overlap: below this two tracks are spliced end to start. */
export const SPLICE_SEC = 0.01;
/** Every track's first and last samples ramp over this long, so a splice never steps. */
export const DECLICK_SEC = 0.005;
/** A quiet intro shorter than this (or than the overlap, if shorter) does not count. */
export const QUIET_MIN_SEC = 0.5;
/** A quiet intro is lifted by up to this much on air (and by no more than it lies under the body). */
export const MAX_INTRO_LIFT_DB = 6;

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
  /** The incoming track's first sound starts this long before the outgoing track's (trimmed) end. */
  overlapSec: number;
  /** Equal-power fade applied to the outgoing track's last fadeOutSec (0: it ends by itself). */
  fadeOutSec: number;
  /** Equal-power fade applied to the incoming track's first fadeInSec (0: it starts by itself). */
  fadeInSec: number;
  /** What is cut from the end of the outgoing track's sound: its fade-out past the segue point and the overlap. */
  trimSec: number;
  shape: 'splice' | 'both' | 'incoming_quiet';
}

export function planCrossfade(outgoing: OutgoingEdge, incoming: IncomingEdge, crossfadeSec: number): CrossfadePlan {
  const length = Math.min(Math.max(0, crossfadeSec), outgoing.lengthSec / 3, incoming.lengthSec / 3);
  if (length < SPLICE_SEC) return { overlapSec: 0, fadeOutSec: 0, fadeInSec: 0, trimSec: 0, shape: 'splice' };
  const trimSec = Math.min(Math.max(0, outgoing.outroSec - length), outgoing.lengthSec / 3);
  const incomingQuiet = incoming.introSec >= Math.min(QUIET_MIN_SEC, length);
  if (incomingQuiet) return { overlapSec: length, fadeOutSec: length, fadeInSec: 0, trimSec, shape: 'incoming_quiet' };
  return { overlapSec: length, fadeOutSec: length, fadeInSec: length, trimSec, shape: 'both' };
}

/**
 * The lift (dB) for a quiet intro measured at `introLufs` in a track whose integrated loudness is
 * `loudnessLufs`: up to the body's level, at most MAX_INTRO_LIFT_DB.
 */
export function introLiftDb(loudnessLufs: number | null, introLufs: number | null): number {
  if (loudnessLufs === null || introLufs === null) return 0;
  return Math.min(MAX_INTRO_LIFT_DB, Math.max(0, loudnessLufs - introLufs));
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
