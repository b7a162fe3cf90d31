/**
 * The station admin panel at `/admin`: staff login with TOTP, then the sections the login's scopes allow
 * (GET /station/v1/auth/validate): an admin sees everything, a developer training, dataset and webhooks
 * but no radio switch. Each section has its own path (/admin/<section>), served by the SPA fallback.
 */
import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { errorText } from '../shared/api';
import { Alert } from '../shared/ui';
import { ContextSection } from './Context';
import { DatasetSection } from './Dataset';
import { GenerationSection } from './Generation';
import { LoginForm } from './Login';
import { Overview } from './Overview';
import { RadioSection } from './Radio';
import { RegistrySection } from './Registry';
import { ReviewSection } from './Review';
import { SafetyTestSection } from './SafetyTest';
import { api, rememberUser, session } from './session';
import { TrainingSection } from './Training';
import { UsersSection } from './Users';
import type { Permissions } from './types';
import { WebhooksSection } from './Webhooks';

interface SectionDef {
  path: string;
  label: string;
  allowed: (p: Permissions) => boolean;
  render: (p: Permissions) => ReactNode;
}

const admin = (p: Permissions) => p.can_toggle_radio;
const trainer = (p: Permissions) => p.can_train;

export const SECTIONS: SectionDef[] = [
  { path: 'overview', label: 'Overview', allowed: () => true, render: (p) => <Overview permissions={p} /> },
  { path: 'radio', label: 'Radio & config', allowed: admin, render: () => <RadioSection /> },
  { path: 'context', label: 'Context', allowed: admin, render: () => <ContextSection /> },
  { path: 'generation', label: 'Generation', allowed: admin, render: () => <GenerationSection /> },
  { path: 'registry', label: 'Registry', allowed: admin, render: () => <RegistrySection /> },
  { path: 'review', label: 'Safety review', allowed: admin, render: () => <ReviewSection /> },
  { path: 'dataset', label: 'Dataset', allowed: trainer, render: () => <DatasetSection /> },
  {
    path: 'training',
    label: 'Training & models',
    allowed: trainer,
    render: (p) => <TrainingSection canDeploy={p.can_toggle_radio} canCancel={p.can_toggle_radio} />,
  },
  { path: 'webhooks', label: 'Webhooks', allowed: () => true, render: () => <WebhooksSection /> },
  { path: 'safety', label: 'Safety test', allowed: admin, render: () => <SafetyTestSection /> },
  { path: 'users', label: 'Users', allowed: (p) => p.role === 'admin' || p.role === 'super_admin', render: (p) => <UsersSection callerRole={p.role} /> },
];

function sectionFromPath(): string {
  const part = location.pathname.replace(/^\/admin\/?/, '').split('/')[0];
  return part || 'overview';
}

export function App() {
  const user = useSyncExternalStore(
    (listener) => session.subscribe(listener),
    () => session.user(),
  );
  const [restoring, setRestoring] = useState(true);

  // A reload keeps the login through the refresh cookie.
  useEffect(() => {
    void session.renew().finally(() => setRestoring(false));
  }, []);

  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {restoring ? (
        <main id="main" className="center">
          <p className="status-line" role="status">
            Loading…
          </p>
        </main>
      ) : user ? (
        <Panel key={user.id} />
      ) : (
        <main id="main" className="center">
          <LoginForm />
        </main>
      )}
    </>
  );
}

function Panel() {
  const user = session.user()!;
  const [permissions, setPermissions] = useState<Permissions | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [current, setCurrent] = useState(sectionFromPath);

  useEffect(() => {
    api
      .get<Permissions>('/station/v1/auth/validate')
      .then(setPermissions)
      .catch((e: unknown) => setError(errorText(e)));
  }, []);
  useEffect(() => {
    const onPop = () => setCurrent(sectionFromPath());
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);

  const go = (path: string) => (event: React.MouseEvent) => {
    event.preventDefault();
    history.pushState(null, '', `/admin/${path}`);
    setCurrent(path);
    document.getElementById('main')?.focus();
  };
  const logout = async () => {
    await api.post('/api/auth/logout').catch(() => undefined);
    rememberUser(null);
    session.set(null);
  };

  const visible = permissions ? SECTIONS.filter((s) => s.allowed(permissions)) : [];
  const section = visible.find((s) => s.path === current) ?? visible[0];
  return (
    <div className="layout">
      <header className="top">
        <p className="brand">Station admin</p>
        <div className="row">
          <span className="muted">
            {user.email} · <span data-testid="role">{permissions?.role ?? user.role}</span>
          </span>
          <button type="button" onClick={() => void logout()}>
            Log out
          </button>
        </div>
      </header>
      <nav aria-label="Sections" className="sections">
        <ul>
          {visible.map((s) => (
            <li key={s.path}>
              <a href={`/admin/${s.path}`} aria-current={s === section ? 'page' : undefined} onClick={go(s.path)}>
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        <Alert>{error}</Alert>
        {permissions && section && (
          <>
            <h1>{section.label}</h1>
            {section.render(permissions)}
          </>
        )}
      </main>
    </div>
  );
}
