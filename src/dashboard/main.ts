import { type DashboardSession, RedlineApiError, RedlineClient } from '../client/index.js';
import { currentRoute, type Dashboard, type Mode, type Page } from './dashboard.js';
import { errorBox } from './error-box.js';
import { h } from './h.js';
import { keysPage } from './pages/keys-page.js';
import { organizationPage } from './pages/organization-page.js';
import { organizationsPage } from './pages/organizations-page.js';
import { reviewPage } from './pages/review-page.js';
import { reviewsPage } from './pages/reviews-page.js';
import { signInPage } from './pages/sign-in-page.js';
import { usagePage } from './pages/usage-page.js';
import { webhookPage } from './pages/webhook-page.js';
import { webhooksPage } from './pages/webhooks-page.js';
import { readSignInFailure } from './sign-in-failure.js';

const baseUrl = `${location.origin}/v1`;
// Retries are for scripts; a person sees the error and decides.
const anonymous = new RedlineClient({ baseUrl, maxRetries: 0, userAgent: 'redline-dashboard' });

function rootElement(): HTMLElement {
  const root = document.getElementById('root');
  if (root === null) throw new Error('the page has no #root');
  return root;
}

/**
 * Signs in from a `#sign-in=` link, or reads the session the cookie holds; null when signed out.
 * A failed GitHub sign-in comes back as `#sign-in-error=…` and shows on the sign-in page, unless
 * a session is open already (a sign-in page replayed from the history after signing in).
 */
async function openSession(root: HTMLElement): Promise<DashboardSession | null> {
  const link = /^#sign-in=([0-9A-Za-z]+)$/.exec(location.hash);
  const failure = readSignInFailure(location.hash);
  try {
    if (link?.[1]) {
      // The code leaves the address bar and history before anything else happens.
      history.replaceState(null, '', '/app/#/reviews');
      return await anonymous.openSession(link[1]);
    }
    if (failure) history.replaceState(null, '', '/app/#/reviews');
    return await anonymous.getSession();
  } catch (error) {
    const signedOut = error instanceof RedlineApiError && error.status === 401 && !link;
    root.replaceChildren(signInPage(anonymous, signedOut ? undefined : error, failure));
    document.title = 'Sign in · Redline';
    return null;
  }
}

function dashboardFor(session: DashboardSession, render: () => void, leaving: (() => void)[]): Dashboard {
  const clients = new Map<Mode, RedlineClient>();
  return {
    session,
    api(mode = 'live') {
      let client = clients.get(mode);
      if (client === undefined) {
        const headers: Record<string, string> = { 'x-csrf-token': session.csrf_token };
        if (mode === 'test') headers['x-svc-mode'] = 'test';
        client = new RedlineClient({ baseUrl, headers, maxRetries: 0, userAgent: 'redline-dashboard' });
        clients.set(mode, client);
      }
      return client;
    },
    onLeave: (stop) => void leaving.push(stop),
    refresh: render,
  };
}

async function pageFor(dash: Dashboard): Promise<Page> {
  const { path } = currentRoute();
  const review = /^\/reviews\/([^/]+)$/.exec(path);
  if (review?.[1]) return reviewPage(dash, decodeURIComponent(review[1]));
  if (path === '/keys') return keysPage(dash);
  const webhook = /^\/webhooks\/([^/]+)$/.exec(path);
  if (webhook?.[1]) return webhookPage(dash, decodeURIComponent(webhook[1]));
  if (path === '/webhooks') return webhooksPage(dash);
  if (path === '/reviews') return reviewsPage(dash);
  if (path === '/usage') return usagePage(dash);
  const organization = /^\/organizations\/([^/]+)$/.exec(path);
  if (organization?.[1]) return organizationPage(dash, decodeURIComponent(organization[1]));
  if (path === '/organizations') return organizationsPage(dash);
  return {
    title: 'Not found',
    body: h('p', {}, 'There is no such page. ', h('a', { href: '#/reviews' }, 'Go to the reviews.')),
  };
}

function layout(session: DashboardSession, signOut: () => void): { shell: HTMLElement; main: HTMLElement } {
  const main = h('main', { id: 'main' });
  const { path } = currentRoute();
  const nav = (href: string, label: string, current: boolean) =>
    h('a', { href, 'aria-current': current ? 'page' : undefined }, label);
  const shell = h(
    'div',
    { class: 'shell' },
    h(
      'header',
      {},
      h('span', { class: 'brand' }, 'Redline'),
      h(
        'nav',
        { 'aria-label': 'Main' },
        nav('#/reviews', 'Reviews', path.startsWith('/reviews')),
        nav('#/usage', 'Usage', path === '/usage'),
        nav('#/keys', 'Keys', path === '/keys'),
        nav('#/webhooks', 'Webhooks', path.startsWith('/webhooks')),
        nav('#/organizations', 'Organizations', path.startsWith('/organizations')),
      ),
      h('span', { class: 'user' }, `Signed in as ${session.user.username}`),
      h('button', { type: 'button', onclick: signOut }, 'Sign out'),
    ),
    main,
  );
  return { shell, main };
}

async function start(): Promise<void> {
  const root = rootElement();
  const session = await openSession(root);
  if (session === null) return;
  let leaving: (() => void)[] = [];
  let rendering = 0;
  let lastPath = '';
  const render = async () => {
    for (const stop of leaving) stop();
    leaving = [];
    const turn = ++rendering;
    const dash = dashboardFor(session, () => void render(), leaving);
    const { shell, main } = layout(session, () => void signOut(dash));
    let page: Page;
    try {
      page = await pageFor(dash);
    } catch (error) {
      page = { title: 'Something went wrong', body: errorBox(error) };
    }
    if (turn !== rendering) return; // a newer navigation won
    const heading = h('h1', { tabindex: '-1' }, page.title);
    main.replaceChildren(heading, page.body);
    root.replaceChildren(shell);
    document.title = `${page.title} · Redline`;
    // A new page moves focus to its heading (screen readers announce it); a refresh of the same
    // page leaves focus where the user is.
    const path = currentRoute().path;
    if (path !== lastPath) heading.focus();
    lastPath = path;
  };
  const signOut = async (dash: Dashboard) => {
    try {
      await dash.api().signOut();
    } finally {
      for (const stop of leaving) stop();
      window.removeEventListener('hashchange', onHashChange);
      history.replaceState(null, '', '/app/');
      root.replaceChildren(signInPage(anonymous));
      document.title = 'Sign in · Redline';
    }
  };
  const onHashChange = () => void render();
  window.addEventListener('hashchange', onHashChange);
  await render();
}

void start();
