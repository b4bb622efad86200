import { createLocalUser, setPlan } from '../../src/auth/accounts.js';
import { createApiToken } from '../../src/auth/api-tokens.js';
import type { Db } from '../../src/db/database.js';

export interface BenchUser {
  userId: string;
  /** A `svc_test_` key with review:read and review:write. */
  token: string;
}

/**
 * `count` local users on the enterprise plan (10,000 requests an hour each), each with a test-mode
 * API token, the way `redline token create --test` and `redline plan set` make them. The bench
 * gives each load connection its own user, so every request is counted against a real budget that
 * the run stays well inside (the bench prints the highest count next to the limit).
 */
export async function seedUsers(db: Db, count: number): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let i = 0; i < count; i += 1) {
    const user = await createLocalUser(db, `bench-${i}`);
    if (!(await setPlan(db, user.id, 'enterprise'))) throw new Error(`could not set ${user.id}'s plan`);
    const { token } = await createApiToken(db, {
      userId: user.id,
      name: 'bench',
      scopes: ['review:read', 'review:write'],
      mode: 'test',
      expiresInSeconds: 24 * 3600,
      now: new Date(),
    });
    users.push({ userId: user.id, token });
  }
  return users;
}
