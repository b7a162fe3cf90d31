/**
 * The listener player at `/`: account forms until logged in (a reload restores the login through the
 * refresh cookie), then the e-mail state and the live radio: play button, the
 * now-playing card updated over /station/ws/now-playing, the listener count over /station/ws/listeners,
 * the queue and the history (refreshed on every track change), and the transparency panel.
 */
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { describeLink, useChannel } from '../shared/live';
import { EmailStatus } from './Account';
import { AuthPanel, ResetConfirm, VerifyEmail } from './Auth';
import { RecentlyPlayed, UpNext } from './Lists';
import { NowPlaying } from './NowPlaying';
import { Player } from './Player';
import { api, session } from './session';
import { TransparencyPanel } from './Transparency';
import type { HistoryItem, ListenerCountMessage, NowPlayingCard, NowPlayingMessage, QueueItem, StreamInfo } from './types';

const QUEUE_REFRESH_MS = 15_000;

function tokenAt(path: string): string | null {
  return location.pathname === path ? new URLSearchParams(location.search).get('token') : null;
}

export function App() {
  const user = useSyncExternalStore(
    (listener) => session.subscribe(listener),
    () => session.user(),
  );
  const [reset, setReset] = useState(() => tokenAt('/reset-password'));
  const [verification, setVerification] = useState(() => tokenAt('/verify-email'));
  const [restoring, setRestoring] = useState(true);
  const leave = () => {
    history.replaceState(null, '', '/');
    setReset(null);
    setVerification(null);
  };

  // A reload keeps the login through the refresh cookie.
  useEffect(() => {
    void session.renew().finally(() => setRestoring(false));
  }, []);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <h1>
          Station <span className="muted">live radio</span>
        </h1>
        {user && (
          <div className="row">
            <span className="muted">{user.display_name}</span>
            <button type="button" onClick={() => void logout()}>
              Log out
            </button>
          </div>
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
          <Radio />
        ) : (
          <AuthPanel />
        )}
      </main>
      <footer className="muted foot">
        AI-generated tracks are labelled and explained. <a href="/policy/ai">AI policy</a> · <a href="/docs">API</a>
      </footer>
    </>
  );
}

async function logout() {
  await api.post('/v1/auth/revoke').catch(() => undefined);
  session.set(null);
}

function Radio() {
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
      <EmailStatus />
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
