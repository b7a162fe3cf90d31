/** A track: play it (the platform stream), save it, add it to a playlist; its facts and credits. */
import { clock, useLoad } from '../../shared/ui';
import type { TrackDetail } from '../api-types';
import { PlayButton } from '../playback';
import { Link, paths } from '../router';
import { api } from '../session';
import { Loading, Page } from './Page';
import { AddToPlaylist, SaveButton, VerifiedBadge } from './parts';

export default function TrackPage({ id }: { id: string }) {
  const track = useLoad(() => api.get<TrackDetail>(`/v1/tracks/${encodeURIComponent(id)}`), [id]);
  const t = track.data;
  return (
    <Page title={t?.title ?? 'Track'}>
      {!t ? (
        <Loading error={track.error} />
      ) : (
        <div className="stack">
          <p>
            by <Link to={paths.artist(t.artist_slug)}>{t.artist}</Link> <VerifiedBadge verified={t.artist_verified} />
            {t.album_id && (
              <>
                {' '}
                · <Link to={paths.album(t.album_id)}>on its release{t.track_number ? ` (track ${t.track_number})` : ''}</Link>
              </>
            )}
          </p>
          <div className="row track-actions">
            <PlayButton track={t} className="primary play-big" />
            <SaveButton track={t} />
          </div>
          <AddToPlaylist track={t} />
          <section className="card" aria-labelledby="track-facts">
            <h3 id="track-facts">About the track</h3>
            <dl className="facts">
              <dt>Length</dt>
              <dd>{clock(t.duration)}</dd>
              <dt>Genre</dt>
              <dd>
                {t.genre}
                {t.subgenre ? ` · ${t.subgenre}` : ''}
              </dd>
              {t.mood.length > 0 && (
                <>
                  <dt>Mood</dt>
                  <dd>{t.mood.join(', ')}</dd>
                </>
              )}
              {t.bpm !== null && (
                <>
                  <dt>Tempo</dt>
                  <dd>{t.bpm} BPM</dd>
                </>
              )}
              {t.key && (
                <>
                  <dt>Key</dt>
                  <dd>
                    {t.key} {t.mode ?? ''}
                  </dd>
                </>
              )}
              {t.release_year !== null && (
                <>
                  <dt>Year</dt>
                  <dd>{t.release_year}</dd>
                </>
              )}
              {t.isrc && (
                <>
                  <dt>ISRC</dt>
                  <dd>{t.isrc}</dd>
                </>
              )}
              <dt>Streams</dt>
              <dd>{t.streams}</dd>
            </dl>
            {t.credits.length > 0 && (
              <>
                <h4>Credits</h4>
                <ul>
                  {t.credits.map((c) => (
                    <li key={`${c.songwriter_id}-${c.role}`}>
                      {c.name} · {c.role} · {c.split_pct}%
                    </li>
                  ))}
                </ul>
              </>
            )}
          </section>
        </div>
      )}
    </Page>
  );
}
