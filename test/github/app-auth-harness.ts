import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { FakeGitHub, type FakeRepo } from '../fakes/fake-github.js';

/**
 * GitHub App authentication (decisions §9: "the app's installation token when the app is
 * installed on the repository, else the user's token"): the app JWT, installation lookup and
 * tokens with their in-memory cache, and how reviews read pull requests with them, against the
 * real-HTTP fake GitHub. Key pairs are generated per run: no PEM is committed.
 */

export const APP_ID = 424_242;

export function rsaKeyPair() {
  return generateKeyPairSync('rsa', { modulusLength: 2048 });
}

/** GitHub hands out PKCS#1 PEM ("BEGIN RSA PRIVATE KEY"). */
export const pkcs1 = (key: KeyObject) => key.export({ type: 'pkcs1', format: 'pem' }).toString();

export const keys = rsaKeyPair();
export let github: FakeGitHub;
export let seq = 0;
export const unique = (prefix: string) => `${prefix}-${++seq}`;

export function privateRepo(): FakeRepo {
  return github.addRepo(github.addOrg(unique('acme')), unique('vault'), { private: true });
}

/** Starts the fake GitHub with the app registered, closes it after the file, resets it (app kept) before each test. */
export function useFakeGitHubApp(): void {
  beforeAll(async () => {
    github = await FakeGitHub.start({ apiBasePath: '/api' });
    github.setApp({ id: APP_ID, publicKey: keys.publicKey });
  });

  afterAll(async () => {
    await github?.close();
  });

  beforeEach(() => {
    github.reset();
    github.setApp({ id: APP_ID, publicKey: keys.publicKey });
  });
}
