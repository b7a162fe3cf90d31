/** The integrator's path, the developer account (POST /v1/developer/account), and where the docs are. */
import { useState } from 'react';
import { api } from '../shared/platform-session';
import { VerifyAddressNotice } from '../shared/PlatformSignIn';
import { Alert, useAction, when } from '../shared/ui';
import { mayDevelop, type PortalContext } from './App';
import type { DeveloperAccount } from './types';

const EXAMPLE = `import { createStationClient } from '@station/client';

const sandbox = createStationClient({
  baseUrl: '${location.origin}',
  apiKey: process.env.STATION_TEST_KEY, // a test key acts in the sandbox
  sandbox: true,                         // calls go to /sandbox/v1
});
const { data, error } = await sandbox.GET('/v1/tracks', { params: { query: { limit: 10 } } });`;

export function OverviewSection(context: PortalContext) {
  const { me, reload } = context;
  const [account, setAccount] = useState<DeveloperAccount | null>(null);
  const { busy, error, run } = useAction();
  const open = async () => {
    const answer = await run(() => api.post<DeveloperAccount>('/v1/developer/account', {}));
    if (answer) {
      setAccount(answer);
      await reload();
    }
  };
  const sandboxBase = account?.sandbox_base_url ?? `${location.origin}/sandbox/v1`;
  return (
    <div className="stack">
      <section className="card" aria-labelledby="account-title">
        <h2 id="account-title">Developer account</h2>
        {me.developer_account || account ? (
          <dl className="facts">
            <dt>Status</dt>
            <dd data-testid="developer-account">Open{account ? ` since ${when(account.created_at)}` : ''}</dd>
            <dt>Sandbox base address</dt>
            <dd>
              <code>{sandboxBase}</code>
            </dd>
            <dt>Production base address</dt>
            <dd>
              <code>{location.origin}/v1</code>
            </dd>
          </dl>
        ) : (
          <>
            <p>A developer account is free. It lets you create API keys and OAuth apps, and call the sandbox: the whole platform API on sandbox data.</p>
            {mayDevelop(context) && <p className="muted">Your staff role ({me.role}) lets you manage keys and apps already; the account adds nothing to it.</p>}
            {!me.email_verified && <VerifyAddressNotice what="Opening a developer account" />}
            <Alert>{error}</Alert>
            <button type="button" className="primary" disabled={busy} onClick={() => void open()}>
              Open a developer account
            </button>
          </>
        )}
      </section>
      <section className="card" aria-labelledby="path-title">
        <h2 id="path-title">Getting started</h2>
        <ol>
          <li>Open a developer account (above).</li>
          <li>Create a test key under API keys: it acts in the sandbox, on sandbox data, with its own quota.</li>
          <li>
            Call the sandbox at <code>{sandboxBase}</code> with the key in <code>X-API-Key</code>, or exchanged for a token at <code>POST /v1/auth/token</code>.
          </li>
          <li>Switch to production: a live key and the base address {location.origin}/v1. Nothing else changes.</li>
          <li>Register webhooks to hear about new tracks, sales and capsules as they happen.</li>
        </ol>
        <p>
          <a href="/docs">Read the API reference (/docs)</a> · <a href="/openapi.json">OpenAPI document</a>
        </p>
      </section>
      <section className="card" aria-labelledby="client-title">
        <h2 id="client-title">Client library</h2>
        <p>
          The TypeScript client for Node.js and browsers, <code>@station/client</code>, lives in the Station repository at <code>clients/js</code> (its README
          walks the integrator's path). It is generated from <a href="/openapi.json">/openapi.json</a>, with the token exchange, CSRF and refresh built in.
        </p>
        <pre className="code" tabIndex={0} aria-label="Example: calling the sandbox with the client library">
          {EXAMPLE}
        </pre>
      </section>
    </div>
  );
}
