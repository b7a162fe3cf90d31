/**
 * The artist studio at `/studio` (issue 17): sign in, create the artist profile, then upload and manage tracks,
 * sell releases, open capsules, follow the analytics and the payouts. Its own bundle (web/studio/index.html).
 */
import { useCallback, useEffect, useState } from 'react';
import { ApiError, errorText } from '../shared/api';
import { AreaLayout, Restore, type SectionDef } from '../shared/AreaShell';
import { PlatformSignIn } from '../shared/PlatformSignIn';
import { api } from '../shared/platform-session';
import type { PlatformUser } from '../shared/platform-session';
import { Alert } from '../shared/ui';
import { AnalyticsSection } from './Analytics';
import { CapsulesSection } from './Capsules';
import { PayoutsSection } from './Payouts';
import { ProfileSection } from './Profile';
import { ReleasesSection } from './Releases';
import { TracksSection } from './Tracks';
import type { Artist, Me } from './types';

export interface StudioContext {
  me: Me;
  /** The caller's artist profile; null until they create one. */
  artist: Artist | null;
  /** Read the profile again (after creating or editing it, or a change to its tracks). */
  reload: () => Promise<void>;
}

/** The sections that need a profile: shown once there is one. */
const withArtist = (c: StudioContext) => c.artist !== null;

const SECTIONS: Array<SectionDef<StudioContext>> = [
  { path: 'profile', label: 'Artist profile', render: (c) => <ProfileSection {...c} /> },
  { path: 'tracks', label: 'Tracks', visible: withArtist, render: (c) => <TracksSection artist={c.artist!} reload={c.reload} /> },
  { path: 'releases', label: 'Releases & prices', visible: withArtist, render: (c) => <ReleasesSection artist={c.artist!} /> },
  { path: 'capsules', label: 'Capsules', visible: withArtist, render: (c) => <CapsulesSection artist={c.artist!} /> },
  { path: 'analytics', label: 'Analytics', visible: withArtist, render: (c) => <AnalyticsSection artist={c.artist!} /> },
  { path: 'payouts', label: 'Payouts', visible: withArtist, render: (c) => <PayoutsSection artist={c.artist!} /> },
];

export function App() {
  return (
    <Restore
      signedOut={
        <PlatformSignIn
          title="Station artist studio"
          intro="Upload your music, sell your releases, open capsules to your fans and see who listens. Sign in, or create a free account."
          demoRole="artist"
        />
      }
      signedIn={(user) => <Studio key={user.id} user={user} />}
    />
  );
}

function Studio({ user }: { user: PlatformUser }) {
  const [me, setMe] = useState<Me | null>(null);
  const [artist, setArtist] = useState<Artist | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const [who, mine] = await Promise.all([
        api.get<Me>('/v1/users/me'),
        api.get<Artist>('/v1/users/me/artist').catch((e: unknown) => {
          if (e instanceof ApiError && e.status === 404) return null;
          throw e;
        }),
      ]);
      setMe(who);
      setArtist(mine);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);

  if (!me || artist === undefined) {
    return (
      <main id="main" className="center" tabIndex={-1}>
        <Alert>{error}</Alert>
        {!error && (
          <p className="status-line" role="status">
            Loading your studio…
          </p>
        )}
      </main>
    );
  }
  const context: StudioContext = { me, artist, reload };
  return (
    <AreaLayout
      base="/studio"
      brand="Station artist studio"
      user={user}
      sections={SECTIONS}
      context={context}
      fallback={artist ? 'tracks' : 'profile'}
      links={
        <>
          <a href="/">Radio</a>
          <a href="/developers">Developers</a>
        </>
      }
    />
  );
}
