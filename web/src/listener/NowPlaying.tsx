/**
 * The now-playing card: cover, title, artist, genre, mood, the origin badge (the AI badge opens the
 * transparency panel), elapsed/duration moving every second, the waveform with the play position, and
 * feedback. Every part has a fixed size, so a track change never shifts the layout.
 */
import { useEffect, useState } from 'react';
import { Waveform } from '../shared/waveform';
import { Alert, OriginBadge, clock, useAction } from '../shared/ui';
import { CatalogActions } from './CatalogActions';
import { api } from './session';
import type { NowPlayingCard } from './types';

/** Seconds into the track, from started_at and the server's clock (offset = server - local). */
export function elapsedOf(card: NowPlayingCard, offsetMs: number, now = Date.now()): number {
  const started = Date.parse(card.started_at);
  const elapsed = Number.isNaN(started) ? card.elapsed_sec : (now + offsetMs - started) / 1000;
  return Math.max(0, Math.min(card.duration_sec, elapsed));
}

function useElapsed(card: NowPlayingCard | null, offsetMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return card ? elapsedOf(card, offsetMs, now) : 0;
}

export function NowPlaying({ card, offsetMs, onTransparency }: { card: NowPlayingCard | null; offsetMs: number; onTransparency: (id: string) => void }) {
  const elapsed = useElapsed(card, offsetMs);
  if (!card) {
    return (
      <article className="card now-playing" aria-labelledby="np-title" data-track-id="">
        <div className="cover cover-empty" aria-hidden="true" />
        <div className="np-body">
          <p className="eyebrow">Now playing</p>
          <h2 id="np-title" className="np-title">
            Nothing on air yet
          </h2>
          <p className="muted">The card appears as soon as the station plays a track.</p>
        </div>
      </article>
    );
  }
  const duration = Math.max(1, card.duration_sec);
  return (
    <article className="card now-playing" aria-labelledby="np-title" data-track-id={card.station_track_id} data-origin={card.track_origin}>
      {card.cover_art_url ? (
        <img className="cover" src={card.cover_art_url} alt={`Cover art of ${card.title}`} width={144} height={144} />
      ) : (
        <div className="cover cover-empty" aria-hidden="true" />
      )}
      <div className="np-body">
        <p className="eyebrow">
          Now playing <OriginBadge ai={card.is_ai_generated} onClick={card.is_ai_generated ? () => onTransparency(card.station_track_id) : undefined} />
        </p>
        <h2 id="np-title" className="np-title" title={card.title}>
          {card.title}
        </h2>
        <p className="np-artist">{card.artist}</p>
        <p className="np-tags">
          <span className="tag">{card.genre}</span>
          {card.mood.slice(0, 4).map((m) => (
            <span key={m} className="tag">
              {m}
            </span>
          ))}
        </p>
      </div>
      <div className="np-progress">
        <Waveform
          url={card.waveform_url}
          position={elapsed / duration}
          label={`Waveform of ${card.title}, ${Math.round((elapsed / duration) * 100)}% played`}
        />
        <div className="times">
          <span>
            <span className="visually-hidden">Elapsed </span>
            <span data-testid="elapsed">{clock(elapsed)}</span>
          </span>
          <progress max={duration} value={elapsed} aria-label="Track progress" />
          <span>
            <span className="visually-hidden">Duration </span>
            {clock(duration)}
          </span>
        </div>
      </div>
      <div className="np-actions">
        <Feedback key={card.station_track_id} trackId={card.station_track_id} ai={card.is_ai_generated} />
        {!card.is_ai_generated && <CatalogActions key={`c-${card.station_track_id}`} trackId={card.station_track_id} />}
      </div>
    </article>
  );
}

type Rating = 'thumbs_up' | 'thumbs_down';

function Feedback({ trackId, ai }: { trackId: string; ai: boolean }) {
  const [rating, setRating] = useState<Rating | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [reported, setReported] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const { busy, error, run } = useAction();

  const send = async (value: Rating, flag = false) => {
    const sent = await run(() => api.post('/station/v1/radio/feedback', { station_track_id: trackId, rating: value, flag_inappropriate: flag }));
    if (sent === null) return;
    setRating(value);
    if (flag) {
      setReported(true);
      setConfirming(false);
      setNote(ai ? 'Reported. Thank you: the track goes to the safety review.' : 'Reported. Thank you: the team will look at it.');
    } else {
      setNote(value === 'thumbs_up' ? 'Thanks, glad you like it.' : 'Thanks, noted.');
    }
  };

  return (
    <div className="feedback">
      <div className="row" role="group" aria-label="Rate this track">
        <button type="button" aria-pressed={rating === 'thumbs_up'} disabled={busy} onClick={() => void send('thumbs_up')}>
          Like
        </button>
        <button type="button" aria-pressed={rating === 'thumbs_down'} disabled={busy} onClick={() => void send('thumbs_down')}>
          Dislike
        </button>
        {!confirming ? (
          <button type="button" className="danger" disabled={busy || reported} onClick={() => setConfirming(true)}>
            {reported ? 'Reported' : 'Report as inappropriate'}
          </button>
        ) : (
          <>
            <button type="button" className="danger" disabled={busy} onClick={() => void send('thumbs_down', true)}>
              Confirm report
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </>
        )}
      </div>
      <p className="status-line" role="status" aria-live="polite">
        {note}
      </p>
      <Alert>{error}</Alert>
    </div>
  );
}
