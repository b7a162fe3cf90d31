/**
 * The listener app's client-side routes: the History API, a `Link` that navigates without a reload (a
 * modified click or a middle click still opens a new tab), and the current location as a React store.
 * No router package: the app has a dozen flat routes, and each KB counts against the listener bundle.
 * The server answers index.html on these paths (LISTENER_PATHS in src/http/web.ts).
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

const listeners = new Set<() => void>();
/** Whether the page changed route since it loaded (the first render keeps focus where the browser put it). */
let navigated = false;

function notify() {
  navigated = true;
  for (const listener of listeners) listener();
}

window.addEventListener('popstate', notify);

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  notify();
}

export function hasNavigated(): boolean {
  return navigated;
}

export interface Where {
  path: string;
  search: URLSearchParams;
}

let snapshot: { key: string; where: Where } | null = null;
function read(): Where {
  const key = location.pathname + location.search;
  if (snapshot?.key !== key) snapshot = { key, where: { path: location.pathname, search: new URLSearchParams(location.search) } };
  return snapshot.where;
}

export function useLocation(): Where {
  return useSyncExternalStore((listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, read);
}

/** `/artists/:slug` against `/artists/neon-tidewater`: `{ slug: 'neon-tidewater' }`, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = (path.length > 1 ? path.replace(/\/+$/, '') : path).split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) {
      if (!got[i]) return null;
      try {
        params[want[i].slice(1)] = decodeURIComponent(got[i]);
      } catch {
        return null;
      }
    } else if (want[i] !== got[i]) return null;
  }
  return params;
}

export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={follow} {...rest} />;
}

/** Path pieces, encoded. */
export const paths = {
  artist: (slug: string) => `/artists/${encodeURIComponent(slug)}`,
  album: (id: string) => `/albums/${encodeURIComponent(id)}`,
  track: (id: string) => `/tracks/${encodeURIComponent(id)}`,
  playlist: (id: string) => `/playlists/${encodeURIComponent(id)}`,
};
