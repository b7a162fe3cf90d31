/**
 * On-demand playback of catalog tracks (the platform stream, GET /v1/tracks/{id}/stream): one `<audio>` for
 * the whole app, so a track keeps playing while the listener moves between pages, and a bar fixed to the
 * bottom of the window (its room is reserved in the layout, so it never pushes content about) with pause,
 * resume and what is playing, shown once a track is picked.
 *
 * The stream route needs the bearer token, which an `<audio>` element cannot send: the page asks the route
 * itself (one byte of it, `Range: bytes=0-0`), which records the play and redirects to a signed, expiring
 * media link; the element then plays that link, which needs no credential and answers Range requests.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { errorText } from '../shared/api';
import { Link, paths } from './router';
import { api, session } from './session';

export interface Playable {
  id: string;
  title: string;
  artist: string;
}

interface Playback {
  current: Playable | null;
  playing: boolean;
  error: string | null;
  /** Plays `track` from the start, or pauses/resumes it when it is the current one. */
  toggle(track: Playable): void;
  audio: RefObject<HTMLAudioElement | null>;
}

const PlaybackContext = createContext<Playback | null>(null);

export function usePlayback(): Playback {
  const playback = useContext(PlaybackContext);
  if (!playback) throw new Error('usePlayback outside PlaybackProvider');
  return playback;
}

async function signedStreamUrl(trackId: string): Promise<string> {
  const response = await api.fetch('GET', `/v1/tracks/${encodeURIComponent(trackId)}/stream`, undefined, { headers: { range: 'bytes=0-0', accept: '*/*' } });
  void response.body?.cancel();
  return response.url;
}

export function PlaybackProvider({ children }: { children: ReactNode }) {
  const audio = useRef<HTMLAudioElement>(null);
  const [current, setCurrent] = useState<Playable | null>(null);
  const [playing, setPlaying] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const toggle = useCallback(
    (track: Playable) => {
      const element = audio.current;
      if (!element) return;
      if (current?.id === track.id && element.src) {
        if (element.paused) void element.play().catch((e: unknown) => setError(errorText(e)));
        else element.pause();
        return;
      }
      setCurrent(track);
      setError(null);
      element.pause();
      signedStreamUrl(track.id)
        .then((url) => {
          element.src = url;
          return element.play();
        })
        .catch((e: unknown) => setError(`Could not play “${track.title}”: ${errorText(e)}`));
    },
    [current],
  );

  // Logging out stops the music and forgets the track.
  useEffect(
    () =>
      session.subscribe(() => {
        if (session.user()) return;
        audio.current?.pause();
        audio.current?.removeAttribute('src');
        setCurrent(null);
      }),
    [],
  );

  useEffect(() => {
    const element = audio.current;
    if (!element) return undefined;
    const on = () => setPlaying(true);
    const off = () => setPlaying(false);
    const failed = () => setError('The track could not be played.');
    element.addEventListener('playing', on);
    element.addEventListener('pause', off);
    element.addEventListener('ended', off);
    element.addEventListener('error', failed);
    return () => {
      element.removeEventListener('playing', on);
      element.removeEventListener('pause', off);
      element.removeEventListener('ended', off);
      element.removeEventListener('error', failed);
    };
  }, []);

  const value = useMemo(() => ({ current, playing, error, toggle, audio }), [current, playing, error, toggle]);
  return (
    <PlaybackContext.Provider value={value}>
      {children}
      <audio ref={audio} preload="none" aria-label="Track player" data-testid="track-audio" />
    </PlaybackContext.Provider>
  );
}

/** The play/pause button of one track, wherever it is listed. */
export function PlayButton({ track, className }: { track: Playable; className?: string }) {
  const { current, playing, toggle } = usePlayback();
  const on = current?.id === track.id && playing;
  return (
    <button type="button" className={className ?? 'play-track'} onClick={() => toggle(track)} aria-pressed={on}>
      {on ? 'Pause' : 'Play'}
      <span className="visually-hidden"> {track.title}</span>
    </button>
  );
}

export function PlaybackBar() {
  const { current, playing, error, toggle } = usePlayback();
  const said = error ?? (current ? `${playing ? 'Playing' : 'Paused'}: ${current.title} by ${current.artist}` : '');
  return (
    <>
      {/* Always in the page, so screen readers hear each change; the bar itself shows once a track is picked. */}
      <p className="visually-hidden" role="status" aria-live="polite">
        {said}
      </p>
      {current && (
        <section className="playback-bar" aria-label="Track player">
          <button type="button" className="primary playback-toggle" onClick={() => toggle(current)} aria-pressed={playing}>
            {playing ? 'Pause' : 'Resume'}
            <span className="visually-hidden"> {current.title}</span>
          </button>
          <p className="playback-now">
            {error ?? (
              <>
                {playing ? 'Playing' : 'Paused'}: <Link to={paths.track(current.id)}>{current.title}</Link> <span className="muted">· {current.artist}</span>
              </>
            )}
          </p>
        </section>
      )}
    </>
  );
}
