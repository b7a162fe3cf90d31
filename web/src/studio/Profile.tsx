/** The artist profile: created once (POST /v1/artists), then edited (PATCH /v1/artists/{slug}). */
import { useState, type FormEvent } from 'react';
import { navigate } from '../shared/AreaShell';
import { api } from '../shared/platform-session';
import { VerifyAddressNotice } from '../shared/PlatformSignIn';
import { Alert, Field, useAction, when } from '../shared/ui';
import type { StudioContext } from './App';
import type { Artist, ArtistInput } from './types';

export function ProfileSection({ me, artist, reload }: StudioContext) {
  if (!artist) {
    return (
      <div className="stack">
        <p>
          Your account has no artist profile yet. Create it to upload tracks, sell releases and open capsules. It starts <strong>unverified</strong>: your
          tracks are public on the platform at once, and an admin's verification later brings them onto the radio.
        </p>
        {!me.email_verified && <VerifyAddressNotice what="Creating an artist profile" />}
        <ProfileForm
          submitLabel="Create artist profile"
          formName="Create artist profile"
          onSaved={async () => {
            // Stay on the profile (a bare /studio opens the tracks once there is one) to show what was made.
            navigate('/studio/profile', { replace: true });
            await reload();
          }}
        />
      </div>
    );
  }
  return (
    <div className="stack">
      <section className="card" aria-labelledby="profile-status">
        <h2 id="profile-status">{artist.name}</h2>
        <dl className="facts">
          <dt>Status</dt>
          <dd data-testid="verification">
            {artist.verified ? `Verified (${when(artist.verified_at)})` : 'Unverified: public on the platform, not on the radio yet'}
          </dd>
          <dt>Address name</dt>
          <dd>
            <code>{artist.slug}</code> <span className="muted">(in every link to you: /v1/artists/{artist.slug})</span>
          </dd>
          <dt>Followers</dt>
          <dd>{artist.followers}</dd>
        </dl>
        <p>
          Next:{' '}
          <a href="/studio/tracks" onClick={(event) => (event.preventDefault(), navigate('/studio/tracks'))}>
            upload a track
          </a>
          .
        </p>
      </section>
      <ProfileForm artist={artist} submitLabel="Save profile" formName="Edit artist profile" onSaved={reload} />
    </div>
  );
}

function ProfileForm({ artist, submitLabel, formName, onSaved }: { artist?: Artist; submitLabel: string; formName: string; onSaved: () => Promise<void> }) {
  const [name, setName] = useState(artist?.name ?? '');
  const [genre, setGenre] = useState(artist?.genre ?? '');
  const [bio, setBio] = useState(artist?.bio ?? '');
  const [country, setCountry] = useState(artist?.country ?? '');
  const [saved, setSaved] = useState(false);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    const body: ArtistInput = { name, genre, bio, country: country.trim() === '' ? null : country.trim().toUpperCase() };
    const answer = await run(() => (artist ? api.patch(`/v1/artists/${encodeURIComponent(artist.slug)}`, body) : api.post('/v1/artists', body)));
    if (answer !== null) {
      setSaved(true);
      await onSaved();
    }
  };
  return (
    <form className="card" onSubmit={submit} aria-label={formName}>
      <div className="form-grid">
        <Field label="Artist name">{(id) => <input id={id} required maxLength={120} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
        <Field label="Genre">{(id) => <input id={id} required maxLength={80} value={genre} onChange={(e) => setGenre(e.target.value)} />}</Field>
        <Field label="Country" hint="Two letters, e.g. FR (optional)">
          {(id, describedBy) => (
            <input
              id={id}
              maxLength={2}
              pattern="[A-Za-z]{2}"
              value={country}
              onChange={(e) => setCountry(e.target.value)}
              aria-describedby={describedBy}
              autoComplete="country"
            />
          )}
        </Field>
      </div>
      <Field label="Bio">{(id) => <textarea id={id} maxLength={2000} value={bio} onChange={(e) => setBio(e.target.value)} />}</Field>
      <Alert>{error}</Alert>
      <Alert tone="ok">{saved && !error ? 'Saved.' : null}</Alert>
      <button className="primary" type="submit" disabled={busy}>
        {submitLabel}
      </button>
    </form>
  );
}
