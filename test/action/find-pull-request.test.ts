import { describe, expect, it } from 'vitest';
import { findPullRequest } from '../../src/action/find-pull-request.js';
import { idempotencyKey } from '../../src/action/idempotency-key.js';

const PR = 'https://github.com/acme/shop/pull/5';
const event = JSON.stringify({ action: 'opened', pull_request: { html_url: PR, head: { sha: 'c0ffee' } } });
const files = (text: string) => (path: string) => {
  if (path !== '/event.json') throw new Error(`ENOENT: ${path}`);
  return text;
};

describe('findPullRequest', () => {
  it.each(['pull_request', 'pull_request_target'])('takes the pull request of a %s event', (name) => {
    const env = { GITHUB_EVENT_NAME: name, GITHUB_EVENT_PATH: '/event.json' };
    expect(findPullRequest(undefined, env, files(event))).toEqual({ url: PR, headSha: 'c0ffee' });
  });

  it('prefers the input, keeping the head commit only when the event is about the same pull request', () => {
    const env = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: '/event.json' };
    expect(findPullRequest(PR, env, files(event))).toEqual({ url: PR, headSha: 'c0ffee' });
    const other = 'https://github.com/acme/shop/pull/6';
    expect(findPullRequest(other, env, files(event))).toEqual({ url: other, headSha: undefined });
    expect(findPullRequest(other, {}, files(event))).toEqual({ url: other, headSha: undefined });
  });

  it('says what to do on an event without a pull request', () => {
    const env = { GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: '/event.json' };
    expect(() => findPullRequest(undefined, env, files('{"ref":"refs/heads/main"}'))).toThrow(
      'No pull request to review: this workflow ran on push, which names none. ' +
        'Run the step on pull_request or pull_request_target, or set the pull-request-url input.',
    );
  });

  it('names an unreadable event file when the event is the only source', () => {
    const env = { GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: '/missing.json' };
    expect(() => findPullRequest(undefined, env, files(event))).toThrow(
      'Cannot read the pull_request event (/missing.json): ENOENT: /missing.json',
    );
    expect(findPullRequest(PR, env, files(event)).url).toBe(PR);
  });
});

describe('idempotencyKey', () => {
  const run = {
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_RUN_ID: '1001',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'review',
    GITHUB_ACTION: 'redline',
  };
  const body = { pull_request_url: PR, inline_comments: true };

  it('is the same for every attempt of a run, and differs by run, job, step and request', () => {
    const key = idempotencyKey(run, body);
    expect(key).toMatch(/^redline-action-[0-9a-f]{64}$/);
    expect(idempotencyKey({ ...run, GITHUB_RUN_ATTEMPT: '2' }, body)).toBe(key);
    const others = [
      idempotencyKey({ ...run, GITHUB_RUN_ID: '1002' }, body),
      idempotencyKey({ ...run, GITHUB_JOB: 'other' }, body),
      idempotencyKey({ ...run, GITHUB_ACTION: 'redline2' }, body),
      idempotencyKey(run, { ...body, inline_comments: false }),
    ];
    expect(new Set([key, ...others]).size).toBe(5);
  });

  it('is absent outside a workflow run', () => {
    expect(idempotencyKey({}, body)).toBeUndefined();
  });
});
