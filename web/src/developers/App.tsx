/**
 * The developer portal at `/developers` (issue 17): the integrator's path of platform-api.md on one page each:
 * open a developer account, create API keys (live and test), watch usage against the quotas, register webhooks
 * and read their delivery log, register OAuth apps. Its own bundle (web/developers/index.html).
 */
import { useCallback, useEffect, useState } from 'react';
import { errorText } from '../shared/api';
import { AreaLayout, Restore, type SectionDef } from '../shared/AreaShell';
import { PlatformSignIn } from '../shared/PlatformSignIn';
import { api, type PlatformUser } from '../shared/platform-session';
import { Alert } from '../shared/ui';
import { AppsSection } from './Apps';
import { KeysSection } from './Keys';
import { OverviewSection } from './Overview';
import type { Me } from './types';
import { UsageSection } from './Usage';
import { WebhooksSection } from './Webhooks';

export interface PortalContext {
  me: Me;
  reload: () => Promise<void>;
}

/** Who may manage keys and apps: a developer account, or the staff roles that hold them by role. */
export const mayDevelop = (c: PortalContext) => c.me.developer_account || ['developer', 'admin', 'super_admin'].includes(c.me.role);

const SECTIONS: Array<SectionDef<PortalContext>> = [
  { path: 'overview', label: 'Overview', render: (c) => <OverviewSection {...c} /> },
  { path: 'keys', label: 'API keys', visible: mayDevelop, render: (c) => <KeysSection me={c.me} /> },
  { path: 'usage', label: 'Usage', visible: mayDevelop, render: () => <UsageSection /> },
  { path: 'webhooks', label: 'Webhooks', visible: mayDevelop, render: (c) => <WebhooksSection me={c.me} /> },
  { path: 'apps', label: 'OAuth apps', visible: mayDevelop, render: (c) => <AppsSection me={c.me} /> },
];

export function App() {
  return (
    <Restore
      signedOut={
        <PlatformSignIn
          title="Station developer portal"
          intro="Build on the Station platform: API keys for the sandbox and production, webhooks and OAuth apps. Sign in, or create a free account."
          demoRole="integrator"
        />
      }
      signedIn={(user) => <Portal key={user.id} user={user} />}
    />
  );
}

function Portal({ user }: { user: PlatformUser }) {
  const [me, setMe] = useState<Me | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setMe(await api.get<Me>('/v1/users/me'));
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, []);
  useEffect(() => {
    void reload();
  }, [reload]);
  if (!me) {
    return (
      <main id="main" className="center" tabIndex={-1}>
        <Alert>{error}</Alert>
        {!error && (
          <p className="status-line" role="status">
            Loading…
          </p>
        )}
      </main>
    );
  }
  return (
    <AreaLayout
      base="/developers"
      brand="Station developer portal"
      user={user}
      sections={SECTIONS}
      context={{ me, reload }}
      fallback="overview"
      links={
        <>
          <a href="/docs">API docs</a>
          <a href="/studio">Studio</a>
        </>
      }
    />
  );
}
