/**
 * The frame of the studio and the developer portal: restore the login (refresh cookie), the sign-in card when
 * there is none, else a header, the area's sections (each at its own path, /<area>/<section>, served by the
 * SPA fallback) and the current one. Focus moves to the content on every section change.
 */
import { useEffect, useRef, useState, useSyncExternalStore, type MouseEvent, type ReactNode } from 'react';
import { logout, session, type PlatformUser } from './platform-session';

export interface SectionDef<C> {
  path: string;
  label: string;
  render: (context: C) => ReactNode;
  /** Shown in the navigation only when true (default: always). */
  visible?: (context: C) => boolean;
}

/** The section part of `/<base>/<section>/...`. */
export function sectionOf(base: string): string {
  return location.pathname.slice(base.length).replace(/^\/+/, '').split('/')[0] ?? '';
}

export function navigate(path: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
  document.getElementById('main')?.focus();
}

export function useUser(): PlatformUser | null {
  return useSyncExternalStore(
    (listener) => session.subscribe(listener),
    () => session.user(),
  );
}

/** Restores the login once, then renders `signedOut` or `signedIn(user)`. */
export function Restore({ signedOut, signedIn }: { signedOut: ReactNode; signedIn: (user: PlatformUser) => ReactNode }) {
  const user = useUser();
  const [restoring, setRestoring] = useState(true);
  useEffect(() => {
    void session.renew().finally(() => setRestoring(false));
  }, []);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {restoring ? (
        <main id="main" className="center" tabIndex={-1}>
          <p className="status-line" role="status">
            Loading…
          </p>
        </main>
      ) : user ? (
        signedIn(user)
      ) : (
        <main id="main" className="center" tabIndex={-1}>
          {signedOut}
        </main>
      )}
    </>
  );
}

export function AreaLayout<C>({
  base,
  brand,
  user,
  sections,
  context,
  fallback,
  links,
}: {
  base: string;
  brand: string;
  user: PlatformUser;
  sections: Array<SectionDef<C>>;
  context: C;
  /** The section shown when the path names none (or one not visible). */
  fallback: string;
  links?: ReactNode;
}) {
  const [current, setCurrent] = useState(() => sectionOf(base));
  useEffect(() => {
    const onPop = () => setCurrent(sectionOf(base));
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, [base]);
  const visible = sections.filter((s) => s.visible?.(context) ?? true);
  const section = visible.find((s) => s.path === current) ?? visible.find((s) => s.path === fallback) ?? visible[0];
  const go = (path: string) => (event: MouseEvent) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(`${base}/${path}`);
  };
  useEffect(() => {
    document.title = `${section?.label ?? ''} · ${brand}`;
  }, [section, brand]);
  return (
    <div className="layout">
      <header className="top">
        <p className="brand">{brand}</p>
        <div className="row">
          {links}
          <span className="muted who">{user.email}</span>
          <button type="button" onClick={() => void logout()}>
            Log out
          </button>
        </div>
      </header>
      <nav aria-label="Sections" className="sections">
        <ul>
          {visible.map((s) => (
            <li key={s.path}>
              <a href={`${base}/${s.path}`} aria-current={s === section ? 'page' : undefined} onClick={go(s.path)}>
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {section && (
          <>
            <h1>{section.label}</h1>
            {section.render(context)}
          </>
        )}
      </main>
    </div>
  );
}

/** A secret the server shows once (an API key, a signing secret, a client secret), with a copy button. */
export function ShownOnce({ label, value, onDone }: { label: string; value: string; onDone?: () => void }) {
  const [copied, setCopied] = useState<string | null>(null);
  // Focus comes here as it appears, so keyboard and screen-reader users meet the secret before anything else.
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), []);
  const code = useRef<HTMLElement>(null);
  const copy = async () => {
    try {
      // The Clipboard API exists in secure contexts only (https, localhost); elsewhere the selection is copied.
      if (navigator.clipboard) await navigator.clipboard.writeText(value);
      else if (!copySelection(code.current)) throw new Error('copy refused');
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Could not copy: select the text and copy it yourself.');
    }
  };
  return (
    <div className="card shown-once" role="region" aria-label={label} ref={box} tabIndex={-1}>
      <p>
        <strong>{label}</strong>: shown this once. Keep it somewhere safe now; it cannot be shown again.
      </p>
      <p className="secret">
        <code data-testid="secret" ref={code}>
          {value}
        </code>
      </p>
      <div className="row">
        <button type="button" className="primary" onClick={() => void copy()}>
          Copy
        </button>
        {onDone && (
          <button type="button" onClick={onDone}>
            Done
          </button>
        )}
      </div>
      <p className="status-line" role="status" aria-live="polite">
        {copied}
      </p>
    </div>
  );
}

/** Selects an element's text and copies it with the older command (pages served over plain http). */
function copySelection(element: HTMLElement | null): boolean {
  const selection = getSelection();
  if (!element || !selection) return false;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
  // execCommand is deprecated but is the only copy outside a secure context; the text stays selected if it fails.
  return document.execCommand('copy');
}
