import { describe, expect, it } from 'vitest';
import { countUsers } from '../../src/auth/accounts.js';
import type { FakeUser } from '../fakes/fake-github.js';
import {
  callback,
  expectError,
  github,
  type Reply,
  startSignIn,
  t,
  useOAuthApps,
  usersWithScmId,
} from './oauth-harness.js';

useOAuthApps();

describe('state (decisions §2: random, single use, ten minutes)', () => {
  /** A refused callback issues nothing: GitHub is not asked for a token and no user is created. */
  async function expectRefused(user: FakeUser, act: () => Promise<Reply>, message: RegExp) {
    const usersBefore = await countUsers(t.database.db);
    expectError(await act(), 401, 'unauthorized', message);
    expect(github.requestsTo('access_token')).toEqual([]);
    expect(await usersWithScmId(t, user.id)).toEqual([]);
    expect(await countUsers(t.database.db)).toBe(usersBefore);
  }

  it('refuses a callback without state', async () => {
    const user = github.addUser({ login: 'no-state' });
    const { code } = github.authorize(await startSignIn(t), user);
    await expectRefused(user, () => callback(t, { code }), /state is missing/);
  });

  it('refuses a state the service never issued', async () => {
    const user = github.addUser({ login: 'forged-state' });
    const { code } = github.authorize(await startSignIn(t), user);
    await expectRefused(user, () => callback(t, { code, state: 'A'.repeat(43) }), /unknown or already used/);
  });

  it('refuses a state used a second time, even with a fresh code', async () => {
    const redirect = await startSignIn(t);
    const first = github.authorize(redirect, github.addUser({ login: 'first-use' }));
    expect((await callback(t, { code: first.code, state: first.state })).statusCode).toBe(200);
    github.reset();

    // Someone replays the callback URL's state with a code of their own for the same challenge.
    const replayer = github.addUser({ login: 'replayer' });
    const { code } = github.authorize(redirect, replayer);
    await expectRefused(replayer, () => callback(t, { code, state: first.state }), /unknown or already used/);
  });

  it('refuses a state older than ten minutes', async () => {
    const user = github.addUser({ login: 'slow-user' });
    const redirect = await startSignIn(t);
    t.clock.advance(10 * 60 * 1000 + 1);
    const { code, state } = github.authorize(redirect, user);
    await expectRefused(user, () => callback(t, { code, state }), /expired/);
  });

  it('refuses the sign-in when the user declined at GitHub', async () => {
    const user = github.addUser({ login: 'declined' });
    const state = (await startSignIn(t)).searchParams.get('state') ?? '';
    const declined = { error: 'access_denied', error_description: 'The user has denied your application access.' };
    await expectRefused(user, () => callback(t, { ...declined, state }), /access_denied/);
  });
});
