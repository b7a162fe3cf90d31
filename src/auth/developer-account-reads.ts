/**
 * Auth's view of developer accounts. Their table belongs to src/platform/developer, whose
 * DeveloperAccountsRepository implements both ports; the composition root (src/app.ts) hands it to auth, to
 * the OAuth apps and to GET /v1/users/me, so nothing below the platform groups imports them.
 */
import type { SQL, SQLWrapper } from 'drizzle-orm';

/** Whether a user opened a developer account, read on its own (creating keys and apps, a user's profile). */
export interface DeveloperAccountCheck {
  hasDeveloperAccount(userId: string): Promise<boolean>;
}

/**
 * The same answer as a boolean SQL expression on `userId` (a column of the caller's statement), so that the
 * key and session lookups that run on every authenticated request stay one prepared statement
 * (src/auth/api-keys.repository.ts, src/auth/sessions.repository.ts).
 */
export interface DeveloperAccountFlag {
  developerAccountOf(userId: SQLWrapper): SQL<boolean>;
}
