/**
 * The playout: one continuous PCM timeline, encoded once, the way an Icecast source client works.
 *
 *   TrackSource.next() -> read() -> analysis -> Voice (decoder, gain, fades)
 *   timeline block (4 frames) = sum of the voices playing -> limiter -> LAME -> frames -> queue
 *
 * The broadcaster takes frames from the queue on its clock and asks for more (`pump`), so the timeline is
 * rendered about `aheadMs` before it is sent, a block at a time with a yield to the event loop after each.
 * The next track is loaded `prefetchMs` before the current one ends; its crossfade is planned as soon as
 * it is loaded (crossfade.ts). If it is still loading when the crossfade should begin, rendering waits as
 * long as the queue allows, then lets the current track play out and brings the next one in when it comes.
 *
 * Positions: the timeline counts samples mixed; `markers` give each track's start, audible change and end
 * in samples of the encoded stream as a decoder hears it (frame index x 1152, codec delay included).
 */
import { LoudnessMeter } from '../../engine/audio/loudness.js';
import { analyseTrack, type TrackAnalysis } from '../../engine/audio/track-analysis.js';
import type { PcmFormat } from '../../engine/audio/pcm.js';
import { QUIET_MIN_SEC, introLiftDb, normalisationGainDb, planCrossfade } from './crossfade.js';
import { CODEC_DELAY_SAMPLES, SAMPLES_PER_FRAME, StreamEncoder } from './encoder.js';
import { LIMITER_LOOKAHEAD, Limiter } from './limiter.js';
import { TIMELINE_RATE, TrackReader, sniffFormat } from './track-reader.js';
import { Voice } from './voice.js';

export interface SourceTrack {
  id: string;
  /** The stream's quality when it was cued (stream_quality). */
  bitrateKbps: number;
  /** Shown by players that ask for ICY metadata ("Artist - Title"). */
  title?: string;
  /** Overlap with the track before it (crossfade_sec when it was cued); the playout's default when absent. */
  crossfadeSec?: number;
  format?: PcmFormat;
  /** The whole file (MP3 or WAV). */
  read(): Promise<Buffer>;
  /** Its analysis (cached by the caller); measured from the bytes when absent. */
  analysis?(bytes: Buffer): Promise<TrackAnalysis>;
}

/** Port to the scheduler: the track to play after the current one; null when there is nothing to play now. */
export interface TrackSource {
  next(): Promise<SourceTrack | null>;
  /**
   * A takeover: the track `id` the last leader had on air, to be continued mid-way (null when it can no longer
   * be played). `continued` are all the tracks the takeover continues, in order (two inside a crossfade; it
   * asks for each): what was cued beyond them never aired. Without it, a takeover starts from the next track.
   */
  resume?(id: string, continued: readonly string[]): Promise<SourceTrack | null>;
}

/**
 * Where a takeover continues a track: its marker on the last leader's timeline, and (when the last leader
 * knew them) the track's place in a crossfade, so a takeover inside one continues both tracks as they were.
 */
export interface ResumePoint {
  id: string;
  startSample: number;
  changeSample: number | null;
  /** Stream sample where it ends on air (its segue's cut, or the end of its sound); null or absent: not known. */
  endSample?: number | null;
  /** Samples of its fade in and its fade out (0: none beyond the declick ramps). */
  fadeIn?: number;
  fadeOut?: number;
  /** The lift of its quiet intro (linear) and the samples it covers. */
  lift?: number;
  liftLength?: number;
  /**
   * The analysis the last leader aired it with: a takeover continues it with the same gain and cut without
   * measuring it again (measuring a whole master on a starved machine took longer than the held frames last).
   */
  analysis?: TrackAnalysis;
}

/** A track a takeover continues, with its place on the last leader's timeline. */
export interface ResumedTrack {
  track: SourceTrack;
  point: ResumePoint;
}

export interface TrackMarker {
  id: string;
  title: string | null;
  /** Stream samples (as heard) of its first sound, of the audible change to it, and of its end. */
  startSample: number;
  changeSample: number | null;
  endSample: number | null;
}

export interface PlayoutOptions {
  bitrateKbps: number;
  prefetchMs: number;
  retryMs: number;
  crossfadeSec: number;
  targetLufs: number;
  ceilingDbtp: number;
  now(): number;
  onError(error: unknown, context: string): void;
  /** Between two rendered blocks. */
  yieldTurn?: () => Promise<void>;
  /** Index of the first frame this playout encodes (a takeover continues the stream's frame count). */
  firstFrame?: number;
}

export const FRAMES_PER_BLOCK = 4;
const BLOCK = FRAMES_PER_BLOCK * SAMPLES_PER_FRAME;
/** The longest quiet intro measured for its lift (longer ones are lifted over this much, then ramp back). */
const MAX_LIFTED_INTRO = 15 * TIMELINE_RATE;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class Playout {
  readonly markers: TrackMarker[] = [];
  private readonly queue: Buffer[] = [];
  private queueHead = 0;
  private position = 0; // timeline samples mixed
  private producedFrames = 0;
  private encoder: StreamEncoder | null = null;
  /** Stream sample (as heard) = timeline sample + offset, for the current encoder. */
  private offset = 0;
  private readonly limiter: Limiter;
  private readonly outLeft = new Float32Array(BLOCK);
  private readonly outRight = new Float32Array(BLOCK);
  private current: Voice | null = null;
  private next: Voice | null = null;
  private loaded: Voice | null = null;
  private loading: Promise<void> | null = null;
  private retryAt = 0;
  private loadGeneration = 0;
  private stopped = false;
  private pumping: Promise<void> | null = null;
  private readonly markerOf = new Map<Voice, TrackMarker>();
  /** The voice of each marker still on the timeline (its fades and cut go with its resume point). */
  private readonly voiceOf = new Map<TrackMarker, Voice>();

  constructor(
    private readonly source: TrackSource,
    private readonly options: PlayoutOptions,
  ) {
    this.limiter = new Limiter(options.ceilingDbtp);
    this.producedFrames = options.firstFrame ?? 0;
  }

  /** Frames rendered and not yet taken. */
  get queued(): number {
    return this.queue.length - this.queueHead;
  }

  get bitrateKbps(): number {
    return this.encoder?.bitrateKbps ?? this.options.bitrateKbps;
  }

  /** The `k`-th frame rendered and not yet taken (0 is the next takeFrame's), without taking it. */
  peek(k: number): Buffer | null {
    return this.queue[this.queueHead + k] ?? null;
  }

  takeFrame(): Buffer | null {
    if (this.queueHead >= this.queue.length) return null;
    const frame = this.queue[this.queueHead++];
    if (this.queueHead > 256) {
      this.queue.splice(0, this.queueHead);
      this.queueHead = 0;
    }
    return frame;
  }

  /**
   * Renders until `target` frames are queued. Waiting for a track that is still loading when its crossfade
   * is due stops the run while at least `reserve` frames are queued; the next pump tries again.
   */
  pump(target: number, reserve: number): Promise<void> {
    this.pumping ??= this.run(target, reserve)
      .catch((error: unknown) => this.options.onError(error, 'rendering the stream'))
      .finally(() => (this.pumping = null));
    return this.pumping;
  }

  /** Resolves once no rendering and no load is in progress (tests drive the clock with it). */
  async idle(): Promise<void> {
    while (this.pumping || this.loading) await Promise.all([this.pumping, this.loading]);
  }

  /** Asks the source for a track now (when none is loaded or loading); resolves when that load settles. */
  requestLoad(): Promise<void> {
    this.retryAt = 0;
    this.maybeLoad(true);
    return this.loading ?? Promise.resolve();
  }

  /**
   * Puts the tracks a takeover continues on the timeline before anything is rendered, each where the
   * timeline's first frame (`firstFrame`) falls in it by its `point` (its first sound's stream sample, from
   * the last leader's markers): the stream goes on at the same sample, only the encoder starts afresh (a 5 ms
   * ramp brings it back in). One track, or two inside a crossfade (the outgoing one, then the incoming one):
   * both go on with the fades, cut and lift the last leader gave them, so neither is cut short nor brought in
   * again from its start. False when nothing of the first is left to play.
   */
  async resume(tracks: readonly ResumedTrack[]): Promise<boolean> {
    if (this.encoder || this.current) throw new Error('a playout resumes only before it renders');
    if (tracks.length === 0 || tracks.length > 2) return false;
    // The offset the first encoder will get (switchEncoder): stream sample = timeline sample + offset.
    const offset = this.producedFrames * SAMPLES_PER_FRAME - this.position + CODEC_DELAY_SAMPLES + LIMITER_LOOKAHEAD;
    const crossfade = tracks.length === 2;
    const voices: Voice[] = [];
    for (const [index, { track, point }] of tracks.entries()) {
      const skip = this.position + offset - point.startSample;
      // The outgoing track of a crossfade goes on to its very end (its last block fades under the incoming one).
      const outgoing = crossfade && index === 0;
      const voice = skip < 0 ? null : await this.load(track, skip, outgoing ? 0 : BLOCK, point.analysis);
      if (this.stopped || this.current) {
        for (const loaded of [...voices, voice]) loaded?.reader.close();
        return false;
      }
      if (!voice) {
        if (outgoing) continue; // nothing of it is left: the incoming one goes on alone
        for (const loaded of voices) loaded.reader.close();
        return false;
      }
      voice.start = this.position - skip;
      const incomingOfTwo = crossfade && index === 1 && voices.length === 1;
      voice.changeAt = point.changeSample === null ? (incomingOfTwo ? null : point.startSample - offset) : point.changeSample - offset;
      if (point.lift !== undefined && point.liftLength !== undefined && point.lift > 1) {
        voice.lift = point.lift;
        voice.liftLength = point.liftLength;
      }
      if (crossfade) {
        // Inside a crossfade: the segue the last leader planned goes on as it was.
        voice.fadeIn = point.fadeIn ?? 0;
        voice.fadeOut = point.fadeOut ?? 0;
        if (point.endSample !== null && point.endSample !== undefined) voice.cut = point.endSample - point.startSample;
      }
      voices.push(voice);
    }
    if (voices.length === 0) return false;
    [this.current, this.next = null] = voices;
    return true;
  }

  /** Forgets the track loaded ahead (and one scheduled but not yet audible in the timeline). */
  dropUpcoming(): void {
    this.loadGeneration++;
    this.loading = null;
    this.loaded?.reader.close();
    this.loaded = null;
    if (this.next && !this.next.started) {
      this.next.reader.close();
      this.next = null;
      if (this.current) {
        this.current.fadeOut = 0;
        this.current.cut = null; // no segue any more: it plays to its end
      }
    }
  }

  stop(): void {
    this.stopped = true;
    this.loadGeneration++;
    for (const voice of [this.current, this.next, this.loaded]) voice?.reader.close();
    this.current = this.next = this.loaded = null;
    this.loading = null;
  }

  /**
   * Where a takeover would continue the latest `count` tracks of the timeline: their markers, with the fades,
   * cut and lift of those still on it.
   */
  resumePoints(count = 3): ResumePoint[] {
    return this.markers.slice(-count).map((marker) => {
      const { id, startSample, changeSample } = marker;
      const voice = this.voiceOf.get(marker);
      if (!voice) return { id, startSample, changeSample, endSample: marker.endSample };
      return {
        id,
        startSample,
        changeSample,
        endSample: voice.end + this.offset,
        fadeIn: voice.fadeIn,
        fadeOut: voice.fadeOut,
        lift: voice.lift,
        liftLength: voice.liftLength,
        analysis: voice.info.analysis,
      };
    });
  }

  /** The latest track that is part of the rendered timeline (what will be heard, even if not yet). */
  lastScheduledId(): string | null {
    return (this.next ?? this.current)?.info.id ?? null;
  }

  private async run(target: number, reserve: number): Promise<void> {
    const yieldTurn = this.options.yieldTurn ?? nextTurn;
    while (!this.stopped && this.queued < target) {
      this.maybeLoad(false);
      this.schedule();
      if (this.waitingForLoad() && this.queued >= reserve) return;
      await this.renderBlock();
      await yieldTurn();
    }
  }

  private maybeLoad(force: boolean): void {
    if (this.stopped || this.loading || this.loaded || this.next) return;
    if (!force && this.options.now() < this.retryAt) return;
    const current = this.current;
    const holing = current !== null && current.holeRun >= TIMELINE_RATE; // a hole may be about to take it off
    if (current && !holing && this.airEndOf(current) - this.position > (this.options.prefetchMs / 1000) * TIMELINE_RATE) return;
    const generation = this.loadGeneration;
    this.loading = this.loadNext()
      .then((voice) => {
        if (generation !== this.loadGeneration) return voice?.reader.close();
        if (voice) this.loaded = voice;
        else this.retryAt = this.options.now() + this.options.retryMs;
      })
      .catch((error: unknown) => {
        if (generation !== this.loadGeneration) return;
        this.retryAt = this.options.now() + this.options.retryMs;
        this.options.onError(error, 'loading the next track');
      })
      .finally(() => {
        if (generation === this.loadGeneration) this.loading = null;
      });
  }

  private async loadNext(): Promise<Voice | null> {
    const track = await this.source.next();
    return track ? this.load(track, 0) : null;
  }

  /**
   * Decodes `track` from `skip` samples past its first sound (its analysis, gain and intro lift as from its
   * start); null when a resumed track has no more than `minLeft` samples left. `known`: the analysis the last
   * leader aired it with (a takeover), used as it is.
   */
  private async load(track: SourceTrack, skip: number, minLeft = BLOCK, known?: TrackAnalysis): Promise<Voice | null> {
    const bytes = await track.read();
    const format = track.format ?? sniffFormat(bytes);
    const analysis = known ?? (track.analysis ? await track.analysis(bytes) : await analyseTrack(bytes, format));
    const startSample = Math.round(analysis.soundStartSec * TIMELINE_RATE);
    const length = Math.round(analysis.soundEndSec * TIMELINE_RATE) - startSample;
    if (analysis.loudnessLufs === null || length <= 0) throw new Error(`track ${track.id} has no sound`);
    if (skip >= length - minLeft) return null; // a resumed track that has (all but) ended
    const gainDb = normalisationGainDb(analysis.loudnessLufs, analysis.truePeakDbtp, this.options.targetLufs, this.options.ceilingDbtp);
    const reader = new TrackReader(bytes, format, startSample + skip, length - skip);
    await reader.fill(2 * BLOCK);
    const info = {
      id: track.id,
      title: track.title ?? null,
      bitrateKbps: track.bitrateKbps,
      crossfadeSec: track.crossfadeSec ?? this.options.crossfadeSec,
      analysis,
    };
    const voice = new Voice(info, reader, 10 ** (gainDb / 20), BLOCK, skip);
    if (skip === 0 && analysis.introSec >= QUIET_MIN_SEC) await this.liftIntro(voice);
    return voice;
  }

  /**
   * A quiet intro is lifted towards the track's body, by at most MAX_INTRO_LIFT_DB: its loudness is measured
   * on the decoded intro (decoded now, ahead of air; it is needed first anyway).
   */
  private async liftIntro(voice: Voice): Promise<void> {
    const intro = Math.min(Math.round(voice.info.analysis.introSec * TIMELINE_RATE), MAX_LIFTED_INTRO, voice.length);
    await voice.reader.fill(intro);
    const meter = new LoudnessMeter(TIMELINE_RATE, 2);
    voice.reader.peek(intro, (left, right) => meter.push([left, right], left.length));
    const liftDb = introLiftDb(voice.info.analysis.loudnessLufs, meter.integrated());
    if (liftDb <= 0) return;
    voice.lift = 10 ** (liftDb / 20);
    voice.liftLength = intro;
  }

  /**
   * Where the track after `voice` should come in as far as `voice` alone tells: its crossfade before its end,
   * earlier by its quiet outro (the segue point). The incoming track's own length can only make it later.
   */
  private segueAt(voice: Voice): number {
    return this.airEndOf(voice) - Math.min(voice.info.crossfadeSec * TIMELINE_RATE, voice.length / 3);
  }

  /** Its end on air: its sound's end, less the part of its quiet outro past the segue (see planCrossfade). */
  private airEndOf(voice: Voice): number {
    if (voice.cut !== null) return voice.end;
    const longest = Math.min(voice.info.crossfadeSec * TIMELINE_RATE, voice.length / 3);
    return voice.end - Math.min(Math.max(0, voice.info.analysis.outroSec * TIMELINE_RATE - longest), voice.length / 3);
  }

  /** Places a loaded track on the timeline: at once on silence, or crossfaded into the current one. */
  private schedule(): void {
    const incoming = this.loaded;
    if (!incoming) return;
    const outgoing = this.current;
    if (!outgoing) {
      incoming.start = this.position;
      this.current = incoming;
      this.loaded = null;
      return;
    }
    if (this.next) return;
    const plan = planCrossfade(
      { lengthSec: outgoing.length / TIMELINE_RATE, outroSec: outgoing.info.analysis.outroSec },
      { lengthSec: incoming.length / TIMELINE_RATE, introSec: incoming.info.analysis.introSec },
      incoming.info.crossfadeSec,
    );
    // The segue: the outgoing track airs up to its end less the trim (the rest of its fade-out), the incoming
    // one starts the overlap before that. Late (it loaded after the segue point): the outgoing track is cut
    // the overlap after now, or plays what is left of it.
    const wanted = Math.round(plan.overlapSec * TIMELINE_RATE);
    const soundEnd = outgoing.start + outgoing.soundLength;
    const airEnd = Math.min(soundEnd, Math.max(soundEnd - Math.round(plan.trimSec * TIMELINE_RATE), this.position + wanted));
    const overlap = Math.max(0, Math.min(wanted, airEnd - this.position));
    if (airEnd < soundEnd) outgoing.cut = airEnd - outgoing.start;
    incoming.start = airEnd - overlap;
    incoming.fadeIn = plan.fadeInSec > 0 ? overlap : 0;
    outgoing.fadeOut = plan.fadeOutSec > 0 ? overlap : 0;
    this.next = incoming;
    this.loaded = null;
  }

  /** The current track reaches the point where its successor should come in, and that one is still loading. */
  private waitingForLoad(): boolean {
    const current = this.current;
    if (!current || this.next || this.loaded || !this.loading) return false;
    return this.position + BLOCK > this.segueAt(current);
  }

  private async renderBlock(): Promise<void> {
    const from = this.position;
    const to = from + BLOCK;
    const voices = [this.current, this.next].filter((voice): voice is Voice => voice !== null && voice.start < to);
    for (const voice of voices) await voice.reader.fill(voice.needed(from, to));
    if (this.stopped) return;
    const starting = voices.find((voice) => !voice.started);
    if (!this.encoder || (starting && starting.info.bitrateKbps !== this.encoder.bitrateKbps)) {
      await this.switchEncoder(starting?.info.bitrateKbps ?? this.options.bitrateKbps);
      if (this.stopped) return;
    }
    this.outLeft.fill(0);
    this.outRight.fill(0);
    for (let segment = 0; segment < BLOCK; segment += SAMPLES_PER_FRAME) this.mixSegment(voices, from + segment, segment);
    this.limiter.process(this.outLeft, this.outRight, BLOCK);
    this.position = to;
    for (const frame of this.encoder!.encode(this.outLeft, this.outRight)) this.push(frame);
    this.skipHole();
    this.retire();
  }

  /** One frame's worth: each voice adds its part; the incoming one's audible change is where it gets louder. */
  private mixSegment(voices: Voice[], at: number, offset: number): void {
    const energies = voices.map((voice) => voice.mixInto(this.outLeft, this.outRight, offset, at, SAMPLES_PER_FRAME));
    voices.forEach((voice) => {
      if (voice.started && !this.markerOf.has(voice)) this.mark(voice);
    });
    const incoming = this.next;
    if (!incoming || incoming.changeAt !== null || !incoming.started) return;
    const outgoingEnergy = this.current && voices.includes(this.current) ? energies[voices.indexOf(this.current)] : 0;
    const incomingEnergy = energies[voices.indexOf(incoming)] ?? 0;
    if (incomingEnergy >= outgoingEnergy || (this.current && at >= this.current.end)) this.changed(incoming, Math.max(at, incoming.start));
  }

  private mark(voice: Voice): void {
    const marker: TrackMarker = { id: voice.info.id, title: voice.info.title, startSample: voice.start + this.offset, changeSample: null, endSample: null };
    this.markerOf.set(voice, marker);
    this.voiceOf.set(marker, voice);
    this.markers.push(marker);
    // Nothing before it: it is the change. A resumed one keeps its own (an incoming one's, once it had one).
    if (voice !== this.next || voice.changeAt !== null) this.changed(voice, voice.changeAt ?? voice.start);
    if (this.markers.length > 16) this.markers.splice(0, this.markers.length - 16);
  }

  private changed(voice: Voice, at: number): void {
    voice.changeAt = at;
    const marker = this.markerOf.get(voice);
    if (marker) marker.changeSample = at + this.offset;
  }

  /**
   * The silence detector: a track that has played HOLE_SKIP_SEC under -50 dBFS (after its first sound) goes
   * off the air here, and the next one starts at once (or as soon as it is loaded; it was asked for a second
   * into the hole).
   */
  private skipHole(): void {
    const current = this.current;
    if (!current || !current.holed || this.position >= current.end) return;
    current.cut = this.position - current.start;
    current.fadeOut = 0;
    const next = this.next;
    if (next && !next.started) {
      next.start = this.position;
      next.fadeIn = 0;
    }
  }

  /** The current track ended: its successor (if any) becomes current. */
  private retire(): void {
    const current = this.current;
    if (!current || this.position < current.end) return;
    const marker = this.markerOf.get(current);
    if (marker) {
      marker.endSample = current.end + this.offset;
      this.voiceOf.delete(marker);
    }
    this.markerOf.delete(current);
    current.reader.close();
    const next = this.next;
    if (next && next.changeAt === null) this.changed(next, Math.max(next.start, current.end));
    this.current = next;
    this.next = null;
  }

  /** A new quality starts a new encoder (the old one is flushed first); the stream's timing carries on from its frames. */
  private async switchEncoder(bitrateKbps: number): Promise<void> {
    if (this.encoder) for (const frame of this.encoder.finish()) this.push(frame);
    const encoder = await StreamEncoder.create(bitrateKbps);
    this.encoder = encoder;
    this.offset = this.producedFrames * SAMPLES_PER_FRAME - this.position + CODEC_DELAY_SAMPLES + LIMITER_LOOKAHEAD;
  }

  private push(frame: Buffer): void {
    this.queue.push(frame);
    this.producedFrames++;
  }
}
