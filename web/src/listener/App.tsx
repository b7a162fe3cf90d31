/**
 * The listener app at `/`: account forms until logged in (a reload restores the login through the refresh
 * cookie), then the pages of the platform behind one navigation: the live radio (this file), the catalog
 * (search and browse, artist, album and track pages), the library, playlists, listening history, the store
 * and the account settings. The heavier pages load on first visit (React.lazy), so the radio's bundle stays
 * small. A route change moves focus to the new page's heading (pages/Page.tsx).
 */
import { Component, Suspense, lazy, useCallback, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { describeLink, useChannel } from '../shared/live';
import { EmailStatus } from './Account';
import { AuthPanel, ResetConfirm, VerifyEmail } from './Auth';
import { RecentlyPlayed, UpNext } from './Lists';
import { NowPlaying } from './NowPlaying';
import { PlaybackBar, PlaybackProvider } from './playback';
import { Player } from './Player';
import { Page } from './pages/Page';
import { Link, match, navigate, useLocation } from './router';
import { isStaff } from './roles';
import { api, logout, session } from './session';
import { TransparencyPanel } from './Transparency';
import { useLoad } from '../shared/ui';
import type { CurrentUser, HistoryItem, ListenerCountMessage, NowPlayingCard, NowPlayingMessage, QueueItem, StreamInfo } from './types';

const QUEUE_REFRESH_MS = 15_000;

const Browse = lazy(() => import('./pages/Browse'));
const ArtistPage = lazy(() => import('./pages/ArtistPage'));
const AlbumPage = lazy(() => import('./pages/AlbumPage'));
const TrackPage = lazy(() => import('./pages/TrackPage'));
const Library = lazy(() => import('./pages/Library'));
const Playlists = lazy(() => import('./pages/Playlists'));
const PlaylistPage = lazy(() => import('./pages/PlaylistPage'));
const ListeningHistory = lazy(() => import('./pages/ListeningHistory'));
const Store = lazy(() => import('./pages/Store'));
const Settings = lazy(() => import('./pages/Settings'));
const NotFound = lazy(() => import('./pages/NotFound'));

/** The app's pages: [pattern, navigation label (null: not in the navigation), page]. */
const ROUTES: Array<[string, string | null, (params: Record<string, string>) => ReactNode]> = [
  ['/', 'Radio', () => <Radio />],
  ['/browse', 'Browse', () => <Browse />],
  ['/library', 'Library', () => <Library />],
  ['/playlists', 'Playlists', () => <Playlists />],
  ['/history', 'History', () => <ListeningHistory />],
  ['/store', 'Store', () => <Store />],
  ['/account', 'Account', () => <Settings />],
  ['/artists/:slug', null, (p) => <ArtistPage slug={p.slug} />],
  ['/albums/:id', null, (p) => <AlbumPage id={p.id} />],
  ['/tracks/:id', null, (p) => <TrackPage id={p.id} />],
  ['/playlists/:id', null, (p) => <PlaylistPage id={p.id} />],
];

function tokenAt(path: string): string | null {
  return location.pathname === path ? new URLSearchParams(location.search).get('token') : null;
}

export function App() {
  const user = useSyncExternalStore(
    (listener) => session.subscribe(listener),
    () => session.user(),
  );
  const where = useLocation();
  const [reset, setReset] = useState(() => tokenAt('/reset-password'));
  const [verification, setVerification] = useState(() => tokenAt('/verify-email'));
  const [restoring, setRestoring] = useState(true);
  const leave = () => {
    navigate('/', { replace: true });
    setReset(null);
    setVerification(null);
  };

  // A reload keeps the login through the refresh cookie.
  useEffect(() => {
    void session.renew().finally(() => setRestoring(false));
  }, []);

  let page: ReactNode = null;
  for (const [pattern, , render] of ROUTES) {
    const params = match(pattern, where.path);
    if (params) {
      page = render(params);
      break;
    }
  }
  const current = (to: string) => (to === '/' ? where.path === '/' : where.path === to || where.path.startsWith(`${to}/`));

  return (
    <PlaybackProvider>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <h1>
          <Link to="/" className="brand">
            Station
          </Link>{' '}
          <span className="muted">{where.path === '/' || !user ? 'live radio' : 'music'}</span>
        </h1>
        {/* The mailed links' pages stand alone: no account bar there, which would also push them down when the login comes back. */}
        {user && !reset && !verification && (
          <div className="row">
            <span className="muted">{user.display_name}</span>
            <button type="button" onClick={() => void logout()}>
              Log out
            </button>
          </div>
        )}
        {user && !reset && !verification && (
          <nav className="main-nav" aria-label="Main">
            <ul>
              {ROUTES.filter(([, label]) => label).map(([to, label]) => (
                <li key={to}>
                  <Link to={to} aria-current={current(to) ? 'page' : undefined}>
                    {label}
                  </Link>
                </li>
              ))}
            </ul>
            <ul aria-label="Other areas">
              <li>
                <a href="/studio">Artist studio</a>
              </li>
              <li>
                <a href="/developers">Developers</a>
              </li>
              {isStaff(user.role) && (
                <li>
                  <a href="/admin">Admin</a>
                </li>
              )}
            </ul>
          </nav>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {reset ? (
          <ResetConfirm token={reset} onDone={leave} />
        ) : verification ? (
          <VerifyEmail token={verification} onDone={leave} />
        ) : restoring ? (
          <p className="status-line" role="status">
            Loading…
          </p>
        ) : user ? (
          <Suspense
            fallback={
              <p className="status-line page-loading" role="status">
                Loading…
              </p>
            }
          >
            <PageBoundary key={where.path}>{page ?? <NotFound />}</PageBoundary>
          </Suspense>
        ) : (
          <AuthPanel />
        )}
      </main>
      <footer className="muted foot">
        AI-generated tracks are labelled and explained. <a href="/policy/ai">AI policy</a> · <a href="/docs">API</a>
      </footer>
      {user && <PlaybackBar />}
    </PlaybackProvider>
  );
}

/** A page that fails to render says so, and the navigation stays usable (the boundary resets on a route change). */
class PageBoundary extends Component<{ children: ReactNode }, { failed: string | null }> {
  override state = { failed: null as string | null };
  static getDerivedStateFromError(error: unknown) {
    return { failed: error instanceof Error ? error.message : String(error) };
  }
  override render() {
    if (this.state.failed === null) return this.props.children;
    return (
      <p className="alert alert-error" role="alert">
        This page failed to show ({this.state.failed}). Try again, or go back.
      </p>
    );
  }
}

/** The radio page; it waits for the account (the e-mail notice at its top) so nothing below it moves when that arrives. */
function Radio() {
  const me = useLoad(() => api.get<CurrentUser>('/v1/users/me'), []);
  return (
    <Page title="Live radio" hideHeading>
      {/* Without the account (an error), the radio still plays; only the e-mail notice is missing. */}
      {me.data || me.error ? (
        <RadioBody me={me.data} />
      ) : (
        <p className="status-line page-loading" role="status">
          Loading…
        </p>
      )}
    </Page>
  );
}

function RadioBody({ me }: { me: CurrentUser | null }) {
  const [card, setCard] = useState<NowPlayingCard | null>(null);
  const [offsetMs, setOffsetMs] = useState(0);
  const [listeners, setListeners] = useState<{ count: number; peak: number | null } | null>(null);
  const [queue, setQueue] = useState<QueueItem[] | null>(null);
  const [history, setHistory] = useState<HistoryItem[] | null>(null);
  const [panel, setPanel] = useState<string | null>(null);
  const [offAir, setOffAir] = useState(false);

  const nowLink = useChannel<NowPlayingMessage>('now-playing', session, (message) => {
    if (message.event !== 'now_playing') return;
    const server = Date.parse(message.server_time_utc);
    if (!Number.isNaN(server)) setOffsetMs(server - Date.now());
    setCard(message.data);
    setOffAir(false);
  });
  const countLink = useChannel<ListenerCountMessage>('listeners', session, (message) => {
    if (message.event === 'listener_count') setListeners({ count: message.count, peak: message.peak_today });
  });

  const onInfo = useCallback((info: StreamInfo) => {
    setOffAir(info.station_status === 'off_air');
    setListeners((l) => l ?? { count: info.listener_count, peak: null });
    if (info.now_playing) setCard((c) => c ?? info.now_playing);
  }, []);

  // The card before the socket's first message (and the off-air state).
  useEffect(() => {
    api
      .get<StreamInfo>('/station/v1/radio/stream-info')
      .then(onInfo)
      .catch(() => undefined);
  }, [onInfo]);

  const trackId = card?.station_track_id ?? null;
  const refreshLists = useCallback(() => {
    api
      .get<{ data: QueueItem[] }>('/station/v1/radio/queue')
      .then((q) => setQueue(q.data))
      .catch(() => undefined);
    api
      .get<{ data: HistoryItem[] }>('/station/v1/radio/history')
      .then((h) => setHistory(h.data))
      .catch(() => undefined);
  }, []);
  useEffect(refreshLists, [trackId, refreshLists]);
  useEffect(() => {
    const timer = setInterval(refreshLists, QUEUE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [refreshLists]);

  const linkNote = describeLink(nowLink, 'Live updates') ?? describeLink(countLink, 'Listener count');
  return (
    <div className="radio">
      {me && <EmailStatus me={me} />}
      <section className="card radio-head" aria-label="Radio">
        <Player card={card} onInfo={onInfo} />
        <p className="listeners" aria-live="off">
          <strong data-testid="listener-count">{listeners ? listeners.count : '–'}</strong> listening now
          {listeners?.peak != null && <span className="muted"> · peak today {listeners.peak}</span>}
        </p>
      </section>
      <p className="status-line link-status" role="status" aria-live="polite">
        {offAir ? 'The station is off air right now.' : linkNote}
      </p>
      <NowPlaying card={card} offsetMs={offsetMs} onTransparency={setPanel} />
      <div className="grid lists">
        <UpNext items={queue} />
        <RecentlyPlayed items={history} onTransparency={setPanel} />
      </div>
      <TransparencyPanel trackId={panel} card={card} onClose={() => setPanel(null)} />
    </div>
  );
}
