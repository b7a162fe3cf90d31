/**
 * The play button and the `<audio>` element on the live stream.
 *
 * - The stream URL comes from GET /station/v1/radio/stream-info and carries a listener ticket (12 hours,
 *   stream_url_expires says until when).
 *   A fresh one is fetched ahead of the ticket's expiry, so a reconnection never presents a dead ticket;
 *   an open stream keeps playing past it (the server checks the ticket when the stream opens).
 * - Recovery: an error, an end, or no progress for a while (a network drop) reconnects with exponential
 *   backoff and a fresh stream-info, and says so; coming back online retries at once.
 * - HLS first (hls_url: natively, or through hls.js loaded on demand, hls-playback.ts), the continuous
 *   stream where neither works; an HLS failure falls back to the continuous stream at once, for the rest of
 *   the session (so a broken HLS path never becomes a reconnection loop).
 * - Media Session: title, artist and artwork on lock screens, play/pause/stop from media keys.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { errorText } from '../shared/api';
import { backoffDelay } from '../shared/live';
import { api } from './session';
import { attachPlayback, type Playback } from './hls-playback';
import type { NowPlayingCard, StreamInfo } from './types';

type PlayerState = 'idle' | 'loading' | 'playing' | 'recovering' | 'off_air';

/** Fetch a new ticket this long before the current one expires. */
const RETICKET_AHEAD_MS = 10 * 60 * 1000;
/** No playback progress for this long while playing: the connection is gone. */
const STALL_MS = 8000;

export function Player({ card, onInfo }: { card: NowPlayingCard | null; onInfo: (info: StreamInfo) => void }) {
  const audio = useRef<HTMLAudioElement>(null);
  const stream = useRef<{ url: string; hlsUrl: string | undefined; expires: number } | null>(null);
  const playback = useRef<Playback | null>(null);
  /** Cleared for the session when HLS failed here: the continuous stream from then on. */
  const hlsUsable = useRef(true);
  const wanted = useRef(false);
  const attempt = useRef(0);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const progress = useRef({ time: 0, at: 0 });
  const [state, setState] = useState<PlayerState>('idle');
  const [message, setMessage] = useState<string | null>(null);
  const [volume, setVolume] = useState(1);
  const [mode, setMode] = useState<Playback['mode'] | null>(null);

  const fetchStream = useCallback(async () => {
    const info = await api.get<StreamInfo>('/station/v1/radio/stream-info');
    onInfo(info);
    stream.current = { url: info.stream_url, hlsUrl: info.hls_url, expires: Date.parse(info.stream_url_expires) };
    return info;
  }, [onInfo]);

  const start = useCallback(async () => {
    const element = audio.current;
    if (!element || !wanted.current) return;
    let status: StreamInfo['station_status'] = 'on_air';
    if (!stream.current || stream.current.expires - Date.now() < RETICKET_AHEAD_MS || attempt.current > 0) {
      status = (await fetchStream()).station_status;
    }
    if (status === 'off_air') {
      setState('off_air');
      setMessage('The station is off air right now. Playback starts again by itself when it is back.');
      throw new Error('off air');
    }
    playback.current?.detach();
    const current = stream.current!;
    playback.current = await attachPlayback(element, { hls: current.hlsUrl, continuous: current.url }, hlsUsable.current, () => fallBack.current());
    setMode(playback.current.mode);
    progress.current = { time: 0, at: Date.now() };
    await element.play();
  }, [fetchStream]);

  /** HLS failed: the continuous stream, now (set below, once start and recover exist). */
  const fallBack = useRef<() => void>(() => undefined);

  const recover = useCallback(
    (why: string) => {
      if (!wanted.current || retryTimer.current) return;
      const delay = backoffDelay(attempt.current);
      attempt.current += 1;
      setState((s) => (s === 'off_air' ? s : 'recovering'));
      setMessage((m) =>
        m && m.startsWith('The station is off air') ? m : `${why}; reconnecting in ${Math.ceil(delay / 1000)} s (attempt ${attempt.current})…`,
      );
      retryTimer.current = setTimeout(() => {
        retryTimer.current = null;
        start().catch((e: unknown) => recover(e instanceof Error && e.message === 'off air' ? 'Off air' : `Could not reconnect (${errorText(e)})`));
      }, delay);
    },
    [start],
  );

  useEffect(() => {
    fallBack.current = () => {
      if (!hlsUsable.current) return;
      hlsUsable.current = false;
      if (!wanted.current) return;
      start().catch((e: unknown) => recover(`Could not start (${errorText(e)})`));
    };
  }, [start, recover]);

  const play = useCallback(() => {
    wanted.current = true;
    attempt.current = 0;
    setState('loading');
    setMessage('Connecting to the stream…');
    start().catch((e: unknown) => recover(e instanceof Error && e.message === 'off air' ? 'Off air' : `Could not start (${errorText(e)})`));
  }, [start, recover]);

  const stop = useCallback(() => {
    wanted.current = false;
    if (retryTimer.current) clearTimeout(retryTimer.current);
    retryTimer.current = null;
    playback.current?.detach();
    playback.current = null;
    const element = audio.current;
    if (element) {
      element.pause();
      // A live stream: drop the connection rather than buffer what is no longer live.
      element.removeAttribute('src');
      element.load();
    }
    setState('idle');
    setMessage(null);
  }, []);

  // Audio element events: playing resets the backoff; errors and ends reconnect.
  useEffect(() => {
    const element = audio.current;
    if (!element) return undefined;
    const onPlaying = () => {
      attempt.current = 0;
      setState('playing');
      setMessage(null);
    };
    const onFailure = () => {
      if (!wanted.current) return;
      // Native HLS that failed: the continuous stream rather than the same playlist again.
      if (playback.current?.mode === 'hls-native') fallBack.current();
      else recover('The stream was interrupted');
    };
    const onTime = () => {
      if (element.currentTime !== progress.current.time) progress.current = { time: element.currentTime, at: Date.now() };
    };
    element.addEventListener('playing', onPlaying);
    element.addEventListener('error', onFailure);
    element.addEventListener('ended', onFailure);
    element.addEventListener('timeupdate', onTime);
    return () => {
      element.removeEventListener('playing', onPlaying);
      element.removeEventListener('error', onFailure);
      element.removeEventListener('ended', onFailure);
      element.removeEventListener('timeupdate', onTime);
    };
  }, [recover]);

  // Watchdog (a dropped network often raises no error, the audio just stops) and re-ticketing.
  useEffect(() => {
    const timer = setInterval(() => {
      if (!wanted.current) return;
      if (state === 'playing' && Date.now() - progress.current.at > STALL_MS) recover('The stream stalled');
      const current = stream.current;
      if (current && current.expires - Date.now() < RETICKET_AHEAD_MS) void fetchStream().catch(() => undefined);
    }, 2000);
    const onOnline = () => {
      if (wanted.current && state !== 'playing') {
        attempt.current = 0;
        if (retryTimer.current) clearTimeout(retryTimer.current);
        retryTimer.current = null;
        recover('Back online');
      }
    };
    window.addEventListener('online', onOnline);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', onOnline);
    };
  }, [state, recover, fetchStream]);

  useEffect(() => {
    if (audio.current) audio.current.volume = volume;
  }, [volume]);

  useMediaSession(card, state === 'playing' || state === 'loading' || state === 'recovering', play, stop);

  const active = state !== 'idle';
  return (
    <div className="player">
      <button type="button" className="primary play" onClick={active ? stop : play} aria-pressed={active}>
        {active ? 'Stop' : 'Play'}
        <span className="visually-hidden"> the live radio</span>
      </button>
      <div className="field volume">
        <label htmlFor="volume">Volume</label>
        <input id="volume" type="range" min={0} max={1} step={0.05} value={volume} onChange={(e) => setVolume(Number(e.target.value))} />
      </div>
      <p className="status-line player-status" role="status" aria-live="polite" data-state={state} data-playback={mode ?? undefined}>
        {message ?? (state === 'playing' ? 'Playing live' : 'Press Play to listen live')}
      </p>
      <audio ref={audio} preload="none" aria-label="Live radio stream" />
    </div>
  );
}

function useMediaSession(card: NowPlayingCard | null, playing: boolean, play: () => void, stop: () => void) {
  useEffect(() => {
    if (!('mediaSession' in navigator)) return;
    const media = navigator.mediaSession;
    media.setActionHandler('play', play);
    media.setActionHandler('pause', stop);
    media.setActionHandler('stop', stop);
    return () => {
      media.setActionHandler('play', null);
      media.setActionHandler('pause', null);
      media.setActionHandler('stop', null);
    };
  }, [play, stop]);

  useEffect(() => {
    if (!('mediaSession' in navigator)) return;
    navigator.mediaSession.playbackState = playing ? 'playing' : 'paused';
  }, [playing]);

  useEffect(() => {
    if (!('mediaSession' in navigator) || !card || typeof MediaMetadata === 'undefined') return;
    navigator.mediaSession.metadata = new MediaMetadata({
      title: card.title,
      artist: card.is_ai_generated ? `${card.artist} (AI-generated)` : card.artist,
      album: 'Station live radio',
      artwork: card.cover_art_url ? [{ src: card.cover_art_url, sizes: '512x512', type: 'image/png' }] : [],
    });
  }, [card]);
}
