import type { RedlineClient } from '../../client/index.js';
import { errorBox, withErrorIn } from '../error-box.js';
import { h } from '../h.js';

/** Signed out: GitHub sign-in when the server has it, and the local one-time link otherwise. */
export function signInPage(api: RedlineClient, problem?: unknown): HTMLElement {
  const slot = h('div', { 'aria-live': 'polite' });
  const github = h(
    'button',
    {
      type: 'button',
      onclick: () =>
        withErrorIn(slot, async () => {
          location.assign(await api.githubSignInUrl(true));
        }),
    },
    'Sign in with GitHub',
  );
  return h(
    'main',
    { id: 'main', class: 'sign-in' },
    h('h1', { tabindex: '-1' }, 'Sign in to Redline'),
    problem === undefined ? null : errorBox(problem),
    h('p', {}, github),
    slot,
    h('h2', {}, 'On this machine'),
    h('p', {}, 'Where GitHub sign-in is not configured, print a one-time link and open it (one use, ten minutes):'),
    h('pre', {}, h('code', {}, 'npx redline dashboard-link --user <your-name>')),
  );
}
