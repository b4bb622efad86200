import type { DashboardSession, RedlineClient } from '../client/index.js';

export type Mode = 'live' | 'test';

/** What every page is handed: the signed-in session and the API, as the user sees it. */
export interface Dashboard {
  session: DashboardSession;
  /** The REST API with the session's cookie and CSRF token, in live or test mode. */
  api(mode?: Mode): RedlineClient;
  /** Called when the page is left (stops a page's refreshing). */
  onLeave(stop: () => void): void;
  /** Renders the current route again (after a change the page made). */
  refresh(): void;
}

/** A page: its title (the h1 and the document's) and its content. */
export interface Page {
  title: string;
  body: HTMLElement;
}

/** The route's path and query, from the URL's fragment (`#/reviews?status=failed`). */
export function currentRoute(): { path: string; query: URLSearchParams } {
  const hash = location.hash.replace(/^#/, '');
  const at = hash.indexOf('?');
  const path = at < 0 ? hash : hash.slice(0, at);
  return { path: path === '' ? '/reviews' : path, query: new URLSearchParams(at < 0 ? '' : hash.slice(at + 1)) };
}

export function modeOf(query: URLSearchParams): Mode {
  return query.get('mode') === 'test' ? 'test' : 'live';
}
