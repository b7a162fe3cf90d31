/**
 * The listener's sign-in (the shared card, opening the role's area after a login), setting a new password from
 * the mailed link (/reset-password?token=...), and confirming an address (/verify-email?token=...).
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Alert, NewPasswordField, useAction } from '../shared/ui';
import type { SessionAnswer } from '../shared/platform-session';
import { SignInCard } from '../shared/SignInCard';
import { api, session, toLogin } from './session';
import { homeOf, roleClaim } from './roles';
import type { ListenerUser } from './types';

/**
 * Keeps the new login, then opens the area of the role its token carries: staff go to /admin, artists to
 * their studio, listeners stay here (roles.ts). Each area's navigation links back to the others.
 */
function signIn(answer: SessionAnswer<ListenerUser>) {
  session.set(toLogin(answer));
  const home = homeOf(roleClaim(answer.token) ?? answer.user.role);
  if (home) location.assign(home);
}

export function AuthPanel() {
  return (
    <SignInCard<ListenerUser>
      api={api}
      title="Listen to the station"
      headingLevel={2}
      intro="An account is free. The radio plays the platform's catalog and original AI-generated tracks, each one labelled."
      modes={['signup', 'login', 'reset']}
      onSignedIn={signIn}
    />
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
          <NewPasswordField label="New password" value={password} onChange={setPassword} />
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
