import type { RedlineClient } from '../../client/index.js';
import { errorBox, withErrorIn } from '../error-box.js';
import { h } from '../h.js';
import type { SignInFailure } from '../sign-in-failure.js';

/**
 * Signed out: GitHub sign-in when the server has it, and the local one-time link otherwise.
 * `problem` is an error of this page's own requests (a used link); `failure` a GitHub sign-in
 * the server sent back failed, shown with a button to try again.
 */
export function signInPage(api: RedlineClient, problem?: unknown, failure?: SignInFailure): HTMLElement {
  const slot = h('div', { 'aria-live': 'polite' });
  const startGitHub = () =>
    withErrorIn(slot, async () => {
      location.assign(await api.githubSignInUrl(true));
    });
  const github = h('button', { type: 'button', onclick: startGitHub }, 'Sign in with GitHub');
  return h(
    'main',
    { id: 'main', class: 'sign-in' },
    h('h1', { tabindex: '-1' }, 'Sign in to Redline'),
    problem === undefined ? null : errorBox(problem),
    failure === undefined
      ? h('p', {}, github)
      : h(
          'div',
          {},
          h(
            'div',
            { class: 'error', role: 'alert' },
            h('p', {}, h('strong', {}, 'GitHub sign-in did not complete.')),
            h('p', {}, failure.message, h('small', {}, ` (${failure.code})`)),
          ),
          h('p', {}, h('button', { type: 'button', onclick: startGitHub }, 'Try again')),
        ),
    slot,
    h('h2', {}, 'On this machine'),
    h('p', {}, 'Where GitHub sign-in is not configured, print a one-time link and open it (one use, ten minutes):'),
    h('pre', {}, h('code', {}, 'npx redline dashboard-link --user <your-name>')),
  );
}
