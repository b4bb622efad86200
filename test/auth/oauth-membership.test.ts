import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/test-app.js';
import { github, organizationLogins, signIn, useOAuthApps } from './oauth-harness.js';

useOAuthApps();

describe('membership refresh (decisions §1: read at sign-in, refreshed at most hourly)', () => {
  it('re-reads GitHub memberships in the background once they are an hour old, not before', async () => {
    const t = await createTestApp({ env: github.env() });
    try {
      const early = github.addOrg('early-org');
      const late = github.addOrg('late-org');
      const user = github.addUser({ login: 'refresher', memberships: [{ organization: early, role: 'member' }] });
      const jwt = (await signIn(t, github, user)).json().token as string;
      // The sign-in JWT lasts an hour; an API token carries on past it.
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/auth/tokens',
        headers: { authorization: `Bearer ${jwt}` },
        payload: { name: 'long', scopes: ['org:read'] },
      });
      const key = created.json().token as string;
      expect(await organizationLogins(t, jwt)).toEqual(['early-org', 'refresher']);
      const membershipReads = () => github.requestsTo('memberships').length;
      const readsAtSignIn = membershipReads();

      // GitHub now lists another organization and no longer the first one.
      user.memberships = [{ organization: late, role: 'admin' }];
      t.clock.advance(59 * 60_000);
      expect(await organizationLogins(t, key)).toEqual(['early-org', 'refresher']);
      expect(await t.runJobs()).toBe(0);
      expect(membershipReads()).toBe(readsAtSignIn);

      t.clock.advance(60_000);
      // This request queues the refresh and answers at once from what we have.
      expect(await organizationLogins(t, key)).toEqual(['early-org', 'refresher']);
      await organizationLogins(t, key);
      expect(await t.runJobs()).toBe(1);
      expect(membershipReads()).toBe(readsAtSignIn + 1);
      expect(await organizationLogins(t, key)).toEqual(['late-org', 'refresher']);
      const role = await t.database.db
        .selectFrom('memberships as m')
        .innerJoin('organizations as o', 'o.id', 'm.organization_id')
        .select('m.role')
        .where('o.login', '=', 'late-org')
        .executeTakeFirstOrThrow();
      expect(role.role).toBe('admin');
    } finally {
      await t.close();
    }
  });
});
