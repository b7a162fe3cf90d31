/**
 * An artist's page: profile with the verified badge, follow and unfollow (POST /v1/artists/{slug}/follow with
 * `{"follow": true|false}`), the discography (releases with their tracks, then tracks on no release), and the
 * artist's capsules: a teaser each, and tap to reveal (POST /v1/capsules/{id}/unlock) the hidden content, or
 * why it stays hidden (follow first, or buy a release).
 */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiError, errorText } from '../../shared/api';
import { Alert, useAction, useLoad } from '../../shared/ui';
import type { ArtistProfile, Capsule, CapsuleTeaser, FollowState } from '../api-types';
import { PlayButton } from '../playback';
import { Link, paths } from '../router';
import { api } from '../session';
import { Loading, Page } from './Page';
import { SaveButton, TrackRows, VerifiedBadge } from './parts';

export default function ArtistPage({ slug }: { slug: string }) {
  const profile = useLoad(() => api.get<ArtistProfile>(`/v1/artists/${encodeURIComponent(slug)}`), [slug]);
  const artist = profile.data;
  return (
    <Page
      title={artist?.name ?? 'Artist'}
      heading={
        artist ? (
          <>
            {artist.name} <VerifiedBadge verified={artist.verified} />
          </>
        ) : (
          'Artist'
        )
      }
    >
      {!artist ? <Loading error={profile.error} /> : <ArtistBody artist={artist} />}
    </Page>
  );
}

function ArtistBody({ artist }: { artist: ArtistProfile }) {
  return (
    <div className="stack">
      <section className="card" aria-label="About">
        <p className="muted">
          {artist.genre}
          {artist.country ? ` · ${artist.country}` : ''}
          {artist.formed_year ? ` · since ${artist.formed_year}` : ''}
          {artist.virtual_artist ? ' · a virtual artist run by the platform' : ''}
        </p>
        {artist.bio && <p>{artist.bio}</p>}
        <Follow artist={artist} />
      </section>
      <section aria-labelledby="discography-title">
        <h3 id="discography-title">Discography</h3>
        {artist.discography.length === 0 && artist.other_tracks.length === 0 && <p className="muted">No releases yet.</p>}
        {artist.discography.map((release) => (
          <article key={release.id} className="card release" aria-labelledby={`release-${release.id}`}>
            <h4 id={`release-${release.id}`}>
              <Link to={paths.album(release.id)}>{release.title}</Link>{' '}
              <span className="muted">
                {release.type}
                {release.release_year ? ` · ${release.release_year}` : ''}
              </span>
            </h4>
            <TrackRows tracks={release.tracks} label={release.title} numbered extra={(t) => <SaveButton track={t} />} />
          </article>
        ))}
        {artist.other_tracks.length > 0 && (
          <article className="card release" aria-labelledby="other-tracks">
            <h4 id="other-tracks">Tracks</h4>
            <TrackRows tracks={artist.other_tracks} label="Other tracks" extra={(t) => <SaveButton track={t} />} />
          </article>
        )}
      </section>
      <Capsules slug={artist.slug} />
    </div>
  );
}

function Follow({ artist }: { artist: ArtistProfile }) {
  const [state, setState] = useState<Pick<FollowState, 'following' | 'followers'>>({ following: artist.following === true, followers: artist.followers });
  const { busy, error, run } = useAction();
  const toggle = async () => {
    const next = await run(() => api.post<FollowState>(`/v1/artists/${encodeURIComponent(artist.slug)}/follow`, { follow: !state.following }));
    if (next) setState(next);
  };
  return (
    <div className="row">
      <button type="button" className={state.following ? undefined : 'primary'} aria-pressed={state.following} onClick={() => void toggle()} disabled={busy}>
        {state.following ? 'Following' : 'Follow'}
        <span className="visually-hidden"> {artist.name}</span>
      </button>
      <span className="muted" role="status">
        {state.followers} {state.followers === 1 ? 'follower' : 'followers'}
      </span>
      <Alert>{error}</Alert>
    </div>
  );
}

function Capsules({ slug }: { slug: string }) {
  const list = useLoad(() => api.get<{ data: CapsuleTeaser[] }>(`/v1/artists/${encodeURIComponent(slug)}/capsules?limit=50`), [slug]);
  return (
    <section aria-labelledby="capsules-title">
      <h3 id="capsules-title">Capsules</h3>
      {!list.data ? (
        <Loading error={list.error} />
      ) : list.data.data.length === 0 ? (
        <p className="muted">No capsules yet.</p>
      ) : (
        <ul className="cards">
          {list.data.data.map((capsule) => (
            <CapsuleCard key={capsule.id} teaser={capsule} />
          ))}
        </ul>
      )}
    </section>
  );
}

const RULE_TEXT: Record<string, string> = {
  none: 'Open to every listener.',
  follow: 'For followers of the artist.',
  own: 'For those who bought a release of the artist.',
};

function CapsuleCard({ teaser }: { teaser: CapsuleTeaser }) {
  const [capsule, setCapsule] = useState<Capsule | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const { busy, run, error } = useAction();
  const reveal = async () => {
    setRefusal(null);
    const opened = await run(async () => {
      try {
        return await api.post<Capsule>(`/v1/capsules/${encodeURIComponent(teaser.id)}/unlock`);
      } catch (e) {
        // A rule not met is an answer to show, not a failure.
        if (e instanceof ApiError && e.status === 403) {
          setRefusal(
            teaser.unlock_rule === 'follow'
              ? 'Follow the artist to reveal this capsule.'
              : teaser.unlock_rule === 'own'
                ? 'Buy a release of the artist in the store to reveal this capsule.'
                : errorText(e),
          );
          return null;
        }
        throw e;
      }
    });
    if (opened) setCapsule(opened);
  };
  const content = capsule?.content;
  return (
    <li className="card capsule">
      <h4>{teaser.title}</h4>
      <p>{teaser.teaser}</p>
      <p className="muted">{RULE_TEXT[teaser.unlock_rule] ?? ''}</p>
      {content ? (
        <Revealed label={`${teaser.title}: revealed`}>
          {content.text && <p>{content.text}</p>}
          {content.track && (
            <p className="row">
              <PlayButton track={content.track} /> <Link to={paths.track(content.track.id)}>{content.track.title}</Link>
            </p>
          )}
          {content.media_url && (
            <p>
              <a href={content.media_url} target="_blank" rel="noopener noreferrer">
                Open the capsule's media (new tab)
              </a>
            </p>
          )}
        </Revealed>
      ) : (
        <button type="button" className="primary" onClick={() => void reveal()} disabled={busy} aria-expanded={false}>
          Tap to reveal<span className="visually-hidden"> {teaser.title}</span>
        </button>
      )}
      <Alert tone="info">{refusal}</Alert>
      <Alert>{error}</Alert>
    </li>
  );
}

/** The hidden content once revealed; focus moves to it, so a keyboard or screen reader user lands on what appeared. */
function Revealed({ label, children }: { label: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div className="capsule-content" tabIndex={-1} ref={ref} role="region" aria-label={label}>
      {children}
    </div>
  );
}
