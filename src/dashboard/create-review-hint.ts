import { h } from './h.js';

/** How to create a review, for the pages that have none to show yet. */
export function createReviewHint(): HTMLElement[] {
  return [
    h('p', {}, 'Here is how to create one: make a key on the ', h('a', { href: '#/keys' }, 'Keys page'), ', then:'),
    h(
      'pre',
      {},
      h(
        'code',
        {},
        `curl -X POST ${location.origin}/v1/reviews \\\n  -H "Authorization: Bearer $REDLINE_KEY" -H "Content-Type: application/json" \\\n  -d '{"pull_request_url": "https://github.com/owner/repo/pull/1"}'`,
      ),
    ),
    h('p', {}, 'Or install the GitHub App or the CI action (see the README).'),
  ];
}
