/**
 * The sign-in of the pages beside the listener's (the studio and the developer portal): the shared sign-in card
 * on the platform session; the reset and verification links of the mails open on the listener page, which has
 * their forms. Also the notice shown while the account's address is unverified.
 */
import { useState, type ReactNode } from 'react';
import { api, session, toLogin, type PlatformUser } from './platform-session';
import { SignInCard } from './SignInCard';
import { Alert, useAction } from './ui';

export function PlatformSignIn({ title, intro, demoRole }: { title: string; intro: ReactNode; demoRole?: string }) {
  return (
    <SignInCard<PlatformUser>
      api={api}
      title={title}
      headingLevel={1}
      intro={intro}
      modes={['login', 'signup', 'reset']}
      demoRoles={demoRole ? [demoRole] : undefined}
      onSignedIn={(answer) => session.set(toLogin(answer))}
    />
  );
}

/** The address still unverified: what it blocks, and a new link on request. */
export function VerifyAddressNotice({ what }: { what: string }) {
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  return (
    <div className="card notice" role="region" aria-label="E-mail verification">
      <p>
        <strong>Confirm your e-mail address first.</strong> {what} needs a verified address: open the link we mailed you when you signed up.
      </p>
      <Alert>{error}</Alert>
      <Alert tone="ok">{sent ? 'A new link is on its way.' : null}</Alert>
      <button
        type="button"
        disabled={busy || sent}
        onClick={() => void run(() => api.post('/v1/auth/verify-email/resend', {})).then((answer) => setSent(answer !== null))}
      >
        Send a new link
      </button>
    </div>
  );
}
