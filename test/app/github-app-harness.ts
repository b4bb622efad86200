import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

export const require = createRequire(import.meta.url);
export const examples = require('@octokit/webhooks-examples') as {
  name: string;
  examples: ({ action?: string } & Record<string, unknown>)[];
}[];

/** A real payload from @octokit/webhooks-examples (Codertocat/Hello-World #2), adjusted per test. */
export function pullRequestPayload(
  action: string,
  changes: { sha?: string; draft?: boolean; updatedAt?: string } = {},
) {
  const source = examples.find((e) => e.name === 'pull_request')?.examples.find((x) => x.action === action);
  if (source === undefined) throw new Error(`no pull_request.${action} example`);
  const payload = structuredClone(source) as {
    pull_request: { head: { sha: string }; draft: boolean; updated_at: string };
    installation?: { id: number };
  };
  if (changes.sha) payload.pull_request.head.sha = changes.sha;
  if (changes.updatedAt) payload.pull_request.updated_at = changes.updatedAt;
  payload.pull_request.draft = changes.draft ?? false;
  payload.installation = { id: INSTALLATION };
  return payload;
}

export const API = 'https://api.github.com';
export const REPO = '/repos/Codertocat/Hello-World';
export const INSTALLATION = 4242;
export const CHECK_RUN = 555;

export const VULNERABLE = [
  "import { db } from './db.js';",
  '',
  'export function findUser(req) {',
  "  return db.query('SELECT * FROM users WHERE id = ' + req.params.id);",
  '}',
  '',
].join('\n');
export const CLEAN = ['export function add(a, b) {', '  return a + b;', '}', ''].join('\n');

export const patchOf = (content: string) => {
  const lines = content.split('\n').slice(0, -1);
  return [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join('\n');
};

/** What the fake GitHub answers and what it was sent (bodies of POST/PATCH requests). */
export interface GitHubScript {
  files: { filename: string; content: string }[];
  /** The pull request's head now (default: the example's). */
  head?: string;
  config?: string;
  posted?: { body: string; user: { login: string; type: string } }[];
}

export let t: TestApp;
export const secret = randomBytes(20).toString('hex');
/** One write Redline made to GitHub: the method, the path and the body it sent. */
export interface SentRequest {
  method: string;
  path: string;
  body: unknown;
}
let onSent: (request: SentRequest) => void = () => {};

export const deliver = (name: string, payload: unknown, id = randomBytes(8).toString('hex'), key = secret) => {
  const body = JSON.stringify(payload);
  return t.app.inject({
    method: 'POST',
    url: '/api/github/webhooks',
    headers: {
      'content-type': 'application/json',
      'x-github-event': name,
      'x-github-delivery': id,
      'x-hub-signature-256': `sha256=${createHmac('sha256', key).update(body).digest('hex')}`,
    },
    payload: body,
  });
};

/** An example payload of @octokit/webhooks-examples by event name (and action), to adjust per test. */
export const example = (name: string, action?: string) => {
  const found = examples
    .find((e) => e.name === name)
    ?.examples.find((x) => action === undefined || x.action === action);
  if (found === undefined) throw new Error(`no ${name}.${action} example`);
  return structuredClone(found) as Record<string, unknown> & Record<string, never>;
};

/** Routes GitHub's API for one pull request; records what Redline writes. */
export function fakeGitHub(script: GitHubScript) {
  const record = (method: string) =>
    function (this: { req: { path: string } }, _uri: string, body: unknown) {
      onSent({ method, path: this.req.path, body });
    };
  nock(API)
    .persist()
    .get('/app')
    .reply(200, { id: 12345, slug: 'redline' })
    .get(`${REPO}/pulls/2`)
    .reply(() => {
      const pr = pullRequestPayload('opened').pull_request;
      if (script.head) pr.head.sha = script.head;
      return [200, pr];
    })
    .get(`${REPO}/installation`)
    .reply(200, { id: INSTALLATION })
    .post(`/app/installations/${INSTALLATION}/access_tokens`)
    .reply(201, () => ({
      token: ['ghs', randomBytes(18).toString('hex')].join('_'),
      expires_at: '2099-01-01T00:00:00Z',
    }))
    .get(`${REPO}/contents/.github%2Fredline.yml`)
    .query(true)
    .reply(() => (script.config === undefined ? [404, { message: 'Not Found' }] : [200, script.config]))
    .post(`${REPO}/check-runs`)
    .reply(201, function (uri, body) {
      record('POST').call(this, uri, body);
      return { id: CHECK_RUN };
    })
    .patch(`${REPO}/check-runs/${CHECK_RUN}`)
    .reply(200, function (uri, body) {
      record('PATCH').call(this, uri, body);
      return { id: CHECK_RUN };
    })
    .get(`${REPO}/pulls/2/files`)
    .query(true)
    .reply(() => [
      200,
      script.files.map((f) => ({
        filename: f.filename,
        status: 'added',
        additions: f.content.split('\n').length - 1,
        deletions: 0,
        patch: patchOf(f.content),
      })),
    ])
    .get(/\/repos\/Codertocat\/Hello-World\/contents\/src%2F.*/)
    .query(true)
    .reply((uri) => {
      const path = decodeURIComponent(uri.split('/contents/')[1]?.split('?')[0] ?? '');
      const file = script.files.find((f) => f.filename === path);
      return file ? [200, file.content] : [404, {}];
    })
    .get(`${REPO}/pulls/2/comments`)
    .query(true)
    .reply(() => [200, script.posted ?? []])
    .get(`${REPO}/pulls/2/reviews`)
    .query(true)
    .reply(200, [])
    .post(`${REPO}/pulls/2/reviews`)
    .reply(200, function (uri, body) {
      record('POST').call(this, uri, body);
      return { id: 9001 };
    });
}

export const reviewsOf = () =>
  t.database.db
    .selectFrom('reviews')
    .selectAll()
    .where('source', '=', 'app')
    .orderBy('created_at')
    .orderBy('pr_updated_at')
    .execute();

/** The app for the file's tests (a fresh RSA key, the webhook secret), nock with no real network around each test; `onSent` is told every write Redline makes to GitHub. */
export function useGitHubApp(sink: (request: SentRequest) => void): void {
  onSent = sink;
  beforeAll(async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    t = await createTestApp({
      env: {
        APP_ID: '12345',
        PRIVATE_KEY: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
        WEBHOOK_SECRET: secret,
      },
    });
  });
  afterAll(async () => t.close());
  beforeEach(() => {
    nock.disableNetConnect();
  });
  afterEach(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });
}
