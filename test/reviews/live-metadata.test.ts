import { describe, expect, it } from 'vitest';
import {
  auth,
  createReview,
  expectError,
  getReview,
  github,
  organizationOf,
  reviewCount,
  scenario,
  signIn,
  t,
  unique,
  useLiveApp,
} from './live-harness.js';

useLiveApp();

describe('metadata from GitHub (spec 2.1/2.2; decisions §1)', () => {
  it('stores the title, branch, author and repository GitHub gives, under the owner organization', async () => {
    const s = await scenario();
    const created = await createReview(s.user.key, { pull_request_url: s.url });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id;
    expect(created.json()).toEqual({
      data: {
        id: expect.stringMatching(/^rev_/),
        status: 'in_progress',
        pull_request: { url: s.url, number: 42 },
        created_at: t.clock.now().toISOString(),
      },
      meta: { request_id: created.headers['x-request-id'], timestamp: t.clock.now().toISOString() },
    });

    // Decisions §1: the organization is the repository's owner, keyed by its GitHub id.
    const org = await organizationOf(s.org.id);
    expect(org).toMatchObject({ scm_id: s.org.id, login: s.org.login, kind: 'organization' });

    const expected = {
      id,
      status: 'in_progress',
      score: null,
      summary: null,
      pull_request: {
        url: s.url,
        number: 42,
        title: 'Add the checkout flow',
        repository: `${s.org.login}/${s.repo.name}`,
        branch: 'feature/checkout',
        author: s.author.login,
      },
      stats: null,
      created_at: t.clock.now().toISOString(),
      completed_at: null,
      organization_id: org?.id,
      team_id: null,
      error: null,
      // Live, asking for inline comments: the App may post it once it completes (decisions §20).
      publication: 'pending',
    };
    for (const credential of [s.user.key, s.user.jwt]) {
      const res = await getReview(credential, id);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual(expected);
    }

    // A member of the organization (GitHub lists the membership at sign-in) sees it; others do not.
    const member = await signIn(
      t,
      github,
      github.addUser({ login: unique('member'), memberships: [{ organization: s.org, role: 'member' }] }),
    );
    const seen = await getReview(member.jwt, id);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data).toEqual(expected);
    const stranger = await signIn(t, github, github.addUser({ login: unique('stranger') }));
    expectError(await getReview(stranger.key, id), t, {
      status: 404,
      type: 'not_found_error',
      code: 'resource_not_found',
    });
  });

  it('puts a review of a personal repository under that user account organization', async () => {
    const owner = github.addUser({ login: unique('solo') });
    const repo = github.addRepo(owner, 'dotfiles', { private: true });
    const pull = github.addPullRequest(repo, { title: 'Tidy up', head: { ref: 'tidy', sha: 'a'.repeat(40) } });
    const account = await signIn(t, github, owner);
    const created = await createReview(account.key, { pull_request_url: github.pullRequestUrl(repo, pull) });
    expect(created.statusCode).toBe(201);
    const review = (await getReview(account.key, created.json().data.id)).json().data;
    const org = await organizationOf(owner.id);
    expect(org).toMatchObject({ login: owner.login, kind: 'user' });
    expect(review).toMatchObject({
      organization_id: org?.id,
      pull_request: { title: 'Tidy up', branch: 'tidy', author: owner.login, repository: `${owner.login}/dotfiles` },
    });
  });
});

describe('team_id (decisions §1)', () => {
  async function createTeam(credential: string, organizationId: string, name: string): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/teams',
      headers: auth(credential),
      payload: { organization_id: organizationId, name },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id;
  }

  it("accepts a team of the pull request's organization and refuses one of another (422)", async () => {
    const s = await scenario();
    // The first review creates the organization; then the user is made its admin.
    expect((await createReview(s.user.key, { pull_request_url: s.url, auto_review: false })).statusCode).toBe(201);
    const org = await organizationOf(s.org.id);
    if (!org) throw new Error('organization not created');
    await t.database.db
      .insertInto('memberships')
      .values({ organization_id: org.id, user_id: s.user.userId, role: 'admin' })
      .execute();
    const team = await createTeam(s.user.jwt, org.id, 'backend');

    // The user's personal organization (admin of it since sign-in): a team there is of another organization.
    const personal = await t.database.db
      .selectFrom('organizations')
      .select('id')
      .where('scm_id', '=', s.user.fake.id)
      .executeTakeFirstOrThrow();
    const otherTeam = await createTeam(s.user.jwt, personal.id, 'elsewhere');

    const teamError = {
      status: 422,
      type: 'validation_error',
      code: 'validation_error',
      details: { field: 'team_id', issue: expect.any(String) },
    };
    for (const teamId of [otherTeam, 'team_doesnotexist']) {
      expectError(await createReview(s.user.key, { pull_request_url: s.url, team_id: teamId }), t, teamError);
    }
    expect(await reviewCount(org.id)).toBe(1);

    const created = await createReview(s.user.key, { pull_request_url: s.url, team_id: team });
    expect(created.statusCode).toBe(201);
    const review = (await getReview(s.user.key, created.json().data.id)).json().data;
    expect(review).toMatchObject({ team_id: team, organization_id: org.id });
  });
});
