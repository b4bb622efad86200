import { issueSignInLink, SIGN_IN_LINK_LIFETIME_MS } from '../auth/dashboard-sessions.js';
import type { Db } from '../db/database.js';
import { findOrCreateCliUser } from './token-create.js';

/**
 * `redline dashboard-link`: a one-time link that signs the user into the dashboard. The code is
 * in the URL's fragment, which the browser never sends to a server (nor to logs or a Referer);
 * the page posts it once to POST /api/auth/session.
 */
export async function dashboardLink(db: Db, userName: string, publicUrl: string, now: Date) {
  const { user, created } = await findOrCreateCliUser(db, userName);
  const code = await issueSignInLink(db, user.id, now);
  return {
    user,
    created,
    url: `${publicUrl}/app/#sign-in=${code}`,
    expiresAt: new Date(now.getTime() + SIGN_IN_LINK_LIFETIME_MS),
  };
}
