/**
 * Sign up, log in (with the TOTP step the platform asks of staff accounts), request a password reset, set a
 * new password from the mailed link (/reset-password?token=...), and confirm an address (/verify-email?token=...).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, Field, useAction } from '../shared/ui';
import { api, session, toLogin } from './session';
import { homeOf, roleClaim } from './roles';
import type { SessionAnswer } from './types';

/**
 * Keeps the new login, then opens the area of the role its token carries: staff go to /admin, artists to
 * their studio, listeners stay here (roles.ts). Each area's navigation links back to the others.
 */
function signIn(answer: SessionAnswer) {
  session.set(toLogin(answer));
  const home = homeOf(roleClaim(answer.token) ?? answer.user.role);
  if (home) location.assign(home);
}

type Mode = 'signup' | 'login' | 'reset';

const MODES: Array<[Mode, string]> = [
  ['signup', 'Sign up'],
  ['login', 'Log in'],
  ['reset', 'Forgot password'],
];

export function AuthPanel() {
  const [mode, setMode] = useState<Mode>('signup');
  return (
    <section className="card auth" aria-labelledby="auth-title">
      <h2 id="auth-title">Listen to the station</h2>
      <p className="muted">An account is free. The radio plays the platform's catalog and original AI-generated tracks, each one labelled.</p>
      <div className="row tabs" role="group" aria-label="Account">
        {MODES.map(([value, label]) => (
          <button key={value} type="button" aria-pressed={mode === value} onClick={() => setMode(value)}>
            {label}
          </button>
        ))}
      </div>
      {mode === 'signup' && <SignupForm />}
      {mode === 'login' && <LoginForm />}
      {mode === 'reset' && <ResetRequestForm />}
    </section>
  );
}

function SignupForm() {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await run(() => api.post<SessionAnswer>('/v1/auth/signup', { email, password, display_name: name }, { anonymous: true }));
    if (answer) signIn(answer);
  };
  return (
    <form onSubmit={submit} aria-label="Sign up">
      <Field label="Display name">
        {(id) => <input id={id} required maxLength={80} value={name} onChange={(e) => setName(e.target.value)} autoComplete="nickname" />}
      </Field>
      <Field label="E-mail">
        {(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />}
      </Field>
      <Field label="Password" hint="At least 8 characters">
        {(id, describedBy) => (
          <input
            id={id}
            type="password"
            required
            minLength={8}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
            aria-describedby={describedBy}
          />
        )}
      </Field>
      <Alert>{error}</Alert>
      <button className="primary" type="submit" disabled={busy}>
        Create account
      </button>
    </form>
  );
}

interface TwoFactor {
  requires_2fa: true;
  temp_token: string;
}

function LoginForm() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (pending) {
      const answer = await run(() => api.post<SessionAnswer>('/v1/auth/2fa/verify', { temp_token: pending, code }, { anonymous: true }));
      if (answer) signIn(answer);
      return;
    }
    const answer = await run(() => api.post<SessionAnswer | TwoFactor>('/v1/auth/login', { email, password }, { anonymous: true }));
    if (!answer) return;
    if ('requires_2fa' in answer) setPending(answer.temp_token);
    else signIn(answer);
  };
  return (
    <form onSubmit={submit} aria-label="Log in">
      {!pending ? (
        <>
          <Field label="E-mail">
            {(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />}
          </Field>
          <Field label="Password">
            {(id) => <input id={id} type="password" required value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />}
          </Field>
        </>
      ) : (
        <Field label="Authenticator code" hint="The 6-digit code of your authenticator app">
          {(id, describedBy) => (
            <input
              id={id}
              inputMode="numeric"
              pattern="[0-9]{6}"
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
              autoComplete="one-time-code"
              aria-describedby={describedBy}
            />
          )}
        </Field>
      )}
      <Alert>{error}</Alert>
      <button className="primary" type="submit" disabled={busy}>
        {pending ? 'Verify' : 'Log in'}
      </button>
      {!pending && <DemoAccounts onPick={(account) => (setEmail(account.email), setPassword(account.password))} />}
    </form>
  );
}

interface DemoAccount {
  role: string;
  email: string;
  password: string;
}

/** On a demo station (GET /v1/demo/accounts answers; elsewhere 404): "try the demo as ..." fills the form. */
function DemoAccounts({ onPick }: { onPick: (account: DemoAccount) => void }) {
  const [accounts, setAccounts] = useState<DemoAccount[]>([]);
  useEffect(() => {
    api.get<DemoAccount[]>('/v1/demo/accounts', { anonymous: true }).then(setAccounts, () => setAccounts([]));
  }, []);
  if (accounts.length === 0) return null;
  return (
    <p className="muted">
      Try the demo as{' '}
      {accounts.map((account, i) => (
        <span key={account.role}>
          {i > 0 && ', '}
          <button type="button" className="link" onClick={() => onPick(account)}>
            {account.role}
          </button>
        </span>
      ))}
    </p>
  );
}

function ResetRequestForm() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ((await run(() => api.post('/v1/auth/reset-password', { email }, { anonymous: true }))) !== null) setSent(true);
  };
  return (
    <form onSubmit={submit} aria-label="Reset password">
      <Field label="E-mail">
        {(id) => <input id={id} type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" />}
      </Field>
      <Alert>{error}</Alert>
      <Alert tone="ok">{sent ? 'If an account has this address, a reset link is on its way (valid for 1 hour).' : null}</Alert>
      <button className="primary" type="submit" disabled={busy}>
        Send reset link
      </button>
    </form>
  );
}

/** The page the reset mail links to. */
export function ResetConfirm({ token, onDone }: { token: string; onDone: () => void }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if ((await run(() => api.post('/v1/auth/reset-password/confirm', { token, password }, { anonymous: true }))) !== null) setDone(true);
  };
  return (
    <section className="card auth" aria-labelledby="reset-title">
      <h2 id="reset-title">Choose a new password</h2>
      {done ? (
        <>
          <Alert tone="ok">Your password is changed. Every other session of your account was logged out.</Alert>
          <button className="primary" type="button" onClick={onDone}>
            Log in
          </button>
        </>
      ) : (
        <form onSubmit={submit} aria-label="New password">
          <Field label="New password" hint="At least 8 characters">
            {(id, describedBy) => (
              <input
                id={id}
                type="password"
                required
                minLength={8}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                autoComplete="new-password"
                aria-describedby={describedBy}
              />
            )}
          </Field>
          <Alert>{error}</Alert>
          <button className="primary" type="submit" disabled={busy}>
            Set password
          </button>
        </form>
      )}
    </section>
  );
}

/** The page the verification mail links to: it confirms the address as it opens (the link works once). */
export function VerifyEmail({ token, onDone }: { token: string; onDone: () => void }) {
  const [done, setDone] = useState(false);
  const { busy, error, run } = useAction();
  const sent = useRef(false);
  useEffect(() => {
    // Once per page, also under StrictMode's double effects: a second use of the token would fail.
    if (sent.current) return;
    sent.current = true;
    void run(() => api.post('/v1/auth/verify-email', { token }, { anonymous: true })).then((answer) => setDone(answer !== null));
  }, [token, run]);
  return (
    <section className="card auth" aria-labelledby="verify-title">
      <h2 id="verify-title">Confirm your e-mail address</h2>
      {busy && (
        <p className="status-line" role="status">
          Confirming…
        </p>
      )}
      <Alert tone="ok">{done ? 'Your e-mail address is verified.' : null}</Alert>
      <Alert>{error}</Alert>
      {(done || error) && (
        <button className="primary" type="button" onClick={onDone}>
          Go to the player
        </button>
      )}
    </section>
  );
}
