import type { AppError } from '../common/errors.js';
import { readCookie } from './dashboard-sessions.js';

/**
 * A GitHub sign-in the dashboard started comes back to the dashboard when it fails, instead of
 * leaving the person on a JSON error page. Most failures know who started the flow from the
 * state's row (`for_dashboard`), but a missing, unknown or reused state has no row: for those,
 * the start answers this cookie, sent back only to the callback, for as long as a slow
 * sign-in may take (a state lives ten minutes; a purged expired one is unknown).
 */
export const DASHBOARD_SIGN_IN_COOKIE = 'redline_dashboard_sign_in';
const CALLBACK_PATH = '/api/auth/scm/callback';
const COOKIE_LIFETIME_SECONDS = 60 * 60;

/** The Set-Cookie value of a dashboard start: it says nothing but "the dashboard", and is no credential. */
export function dashboardSignInCookie(publicUrl: string): string {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${DASHBOARD_SIGN_IN_COOKIE}=1; Path=${CALLBACK_PATH}; Max-Age=${COOKIE_LIFETIME_SECONDS}; HttpOnly; SameSite=Lax${secure}`;
}

/** Whether this browser started a dashboard sign-in lately (the cookie came back). */
export function cameFromDashboard(cookieHeader: string | string[] | undefined): boolean {
  return readCookie(cookieHeader, DASHBOARD_SIGN_IN_COOKIE) !== undefined;
}

/**
 * The dashboard's sign-in page with the error's code and message in the fragment, which the
 * browser keeps to itself (no server, log or Referer sees it). Never a token: nothing was issued.
 */
export function signInFailureLocation(publicUrl: string, error: AppError): string {
  const fragment = new URLSearchParams({ 'sign-in-error': error.code, message: error.message });
  return `${publicUrl}/app/#${fragment.toString()}`;
}
