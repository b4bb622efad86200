import { describe, expect, it } from 'vitest';
import { findPullRequest } from '../../src/action/find-pull-request.js';
import { idempotencyKey } from '../../src/action/idempotency-key.js';
import { contextFor, example } from './github-action-harness.js';

const PR = 'https://github.com/Codertocat/Hello-World/pull/2';
const HEAD = 'ec26c3e57ca3a959ca5aad62de7213c562f8c821';
const REF = { owner: 'Codertocat', repo: 'Hello-World', number: 2 };
const synchronize = () => example('pull_request', 'synchronize');

describe('findPullRequest, over @actions/github context', () => {
  it.each(['pull_request', 'pull_request_target'])('takes the pull request of a %s event', (name) => {
    expect(findPullRequest(undefined, contextFor({ name, payload: synchronize() }))).toEqual({
      url: PR,
      ref: REF,
      headSha: HEAD,
      readOnlyToken: false,
    });
  });

  it('knows a pull_request run from a fork or Dependabot has a read-only token, and a pull_request_target run not', () => {
    const fork = synchronize();
    fork.pull_request.head.repo.full_name = 'someone/Hello-World';
    expect(findPullRequest(undefined, contextFor({ name: 'pull_request', payload: fork })).readOnlyToken).toBe(true);
    expect(findPullRequest(undefined, contextFor({ name: 'pull_request_target', payload: fork })).readOnlyToken).toBe(
      false,
    );
    const dependabot = synchronize();
    dependabot.sender.login = 'dependabot[bot]';
    expect(findPullRequest(undefined, contextFor({ name: 'pull_request', payload: dependabot })).readOnlyToken).toBe(
      true,
    );
  });

  it('prefers the input, keeping the head commit only when the event is about the same pull request', () => {
    const context = contextFor({ name: 'pull_request', payload: synchronize() });
    expect(findPullRequest(PR, context)).toEqual({ url: PR, ref: REF, headSha: HEAD, readOnlyToken: false });
    const other = 'https://github.com/Codertocat/Hello-World/pull/6';
    expect(findPullRequest(other, context)).toEqual({
      url: other,
      ref: { ...REF, number: 6 },
      headSha: undefined,
      readOnlyToken: false,
    });
  });

  it('takes pull-request-url on workflow_dispatch and issue_comment', () => {
    for (const [name, action] of [
      ['workflow_dispatch', undefined],
      ['issue_comment', 'created'],
    ] as const) {
      const context = contextFor({ name, payload: example(name, action) });
      expect(findPullRequest(PR, context)).toEqual({ url: PR, ref: REF, headSha: undefined, readOnlyToken: false });
    }
  });

  it("reads owner, repository and number on GITHUB_SERVER_URL only (Enterprise Server's too)", () => {
    const server = { serverUrl: 'https://octocoders.github.io', apiUrl: 'https://octocoders.github.io/api/v3' };
    const payload = example('pull_request', 'opened', true);
    const context = contextFor({ name: 'pull_request', payload }, server);
    expect(findPullRequest(undefined, context)).toEqual({
      url: 'https://octocoders.github.io/Codertocat/Hello-World/pull/2',
      ref: REF,
      headSha: payload.pull_request.head.sha,
      readOnlyToken: false,
    });
    expect(findPullRequest(PR, context).ref).toBeUndefined();
  });

  it('says what to do on an event without a pull request', () => {
    const context = contextFor({ name: 'push', payload: example('push', undefined) });
    expect(() => findPullRequest(undefined, context)).toThrow(
      'No pull request to review: this workflow ran on push, which names none. ' +
        'Run the step on pull_request or pull_request_target, or set the pull-request-url input.',
    );
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
  const body = { pull_request_url: 'https://github.com/acme/shop/pull/5', inline_comments: true };

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
