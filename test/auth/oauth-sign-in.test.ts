import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CALLBACK_URL,
  decodeClaims,
  type Form,
  forms,
  github,
  organizationLogins,
  PUBLIC_URL,
  signIn,
  startSignIn,
  t,
  useOAuthApps,
  usersWithScmId,
} from './oauth-harness.js';

useOAuthApps();

describe('successful sign-in', () => {
  it.each<Form>(['github.com', 'enterprise'])('runs end to end on the %s URL form', async (form) => {
    const { github, t } = forms[form];
    const user = github.addUser({ login: `octo-${form.replace('.', '-')}`, name: 'Octo Cat' });

    // The authorization URL is on GitHub's web host (GITHUB_SERVER_URL), never the API host.
    const redirect = await startSignIn(t);
    expect(redirect.origin + redirect.pathname).toBe(`${github.serverUrl}/login/oauth/authorize`);
    const authorizeQuery = Object.fromEntries(redirect.searchParams);
    expect(authorizeQuery).toEqual({
      client_id: github.clientId,
      redirect_uri: CALLBACK_URL,
      scope: 'read:user user:email read:org repo',
      state: expect.stringMatching(/^[A-Za-z0-9]{32,}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), // base64url SHA-256
      code_challenge_method: 'S256',
    });

    const { code, callback: back } = github.authorize(redirect, user);
    expect(back.origin + back.pathname).toBe(CALLBACK_URL);
    const res = await t.app.inject({ method: 'GET', url: back.pathname + back.search });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      token: expect.any(String),
      user: {
        id: expect.stringMatching(/^usr_/),
        scm_id: user.id,
        username: user.login,
        email: user.email,
        avatar_url: user.avatar_url,
      },
    });

    // Decisions §2: iss = PUBLIC_URL, aud = redline, sub = the user, one hour.
    const claims = decodeClaims(body.token);
    expect(claims).toMatchObject({ iss: PUBLIC_URL, aud: 'redline', sub: body.user.id });
    expect(claims.iat).toBe(Math.floor(t.clock.now().getTime() / 1000));
    expect(claims.exp - claims.iat).toBe(3600);

    // The JWT is accepted where a JWT is required and where any credential is.
    const tokens = await t.app.inject({
      method: 'GET',
      url: '/api/auth/tokens',
      headers: { authorization: `Bearer ${body.token}` },
    });
    expect(tokens.statusCode).toBe(200);
    expect(tokens.json()).toEqual({ tokens: [] });
    expect(await organizationLogins(t, body.token)).toEqual([user.login]);

    // What GitHub received: the code exchange, then the API under this form's base path.
    const accessToken = github.issuedTokens.at(-1)?.token;
    expect(github.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /login/oauth/access_token',
      `GET ${github.apiBasePath}/user`,
      `GET ${github.apiBasePath}/user/memberships/orgs`,
    ]);
    const [exchange, getUser, listMemberships] = github.requests;
    expect(exchange?.headers.accept).toBe('application/json');
    expect(exchange?.form).toEqual({
      client_id: github.clientId,
      client_secret: github.clientSecret,
      code,
      redirect_uri: CALLBACK_URL,
      code_verifier: expect.stringMatching(/^[A-Za-z0-9._~-]{43,128}$/), // RFC 7636 §4.1
    });
    const verifier = exchange?.form?.code_verifier ?? '';
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(authorizeQuery.code_challenge);
    expect(getUser?.headers.authorization).toBe(`token ${accessToken}`);
    expect(listMemberships?.headers.authorization).toBe(`token ${accessToken}`);
    expect(listMemberships?.query).toEqual({ state: 'active', per_page: '100' });
  });

  it('takes the primary verified address from /user/emails when the profile e-mail is private', async () => {
    const user = github.addUser({
      login: 'private-mail',
      email: null,
      emails: [
        { email: 'noreply@users.example.test', primary: false, verified: true, visibility: null },
        { email: 'unverified@example.test', primary: false, verified: false, visibility: null },
        { email: 'main@example.test', primary: true, verified: true, visibility: 'private' },
      ],
    });
    const res = await signIn(t, github, user);
    expect(res.statusCode).toBe(200);
    expect(res.json().user.email).toBe('main@example.test');
    expect(github.requestsTo('emails')).toHaveLength(1);
  });

  it('follows the organization memberships GitHub lists, across pages, and drops the ones it stops listing', async () => {
    const acme = github.addOrg('acme');
    const widgets = github.addOrg('widgets');
    const user = github.addUser({
      login: 'member-mo',
      memberships: [
        { organization: acme, role: 'admin' },
        { organization: widgets, role: 'member' },
        { organization: github.addOrg('invited'), role: 'member', state: 'pending' }, // not a member yet
      ],
    });
    github.maxPerPage = 1; // one membership per page: Octokit must follow the Link header
    const first = await signIn(t, github, user);
    expect(first.statusCode).toBe(200);
    expect(github.requestsTo('memberships').map((r) => r.query.page)).toEqual([undefined, '2']);
    expect(await organizationLogins(t, first.json().token)).toEqual(['acme', 'member-mo', 'widgets']);

    // Decisions §1: GitHub organization admins are admins in Redline; the personal account is the user's.
    const roles = await t.database.db
      .selectFrom('memberships as m')
      .innerJoin('organizations as o', 'o.id', 'm.organization_id')
      .select(['o.login', 'm.role'])
      .where('m.user_id', '=', first.json().user.id)
      .orderBy('o.login')
      .execute();
    expect(roles).toEqual([
      { login: 'acme', role: 'admin' },
      { login: 'member-mo', role: 'admin' },
      { login: 'widgets', role: 'member' },
    ]);

    user.memberships = user.memberships.filter((m) => m.organization !== widgets);
    const second = await signIn(t, github, user);
    expect(second.statusCode).toBe(200);
    expect(await organizationLogins(t, second.json().token)).toEqual(['acme', 'member-mo']);
  });

  it('keeps the same user when the same GitHub account signs in again, taking its new login and avatar', async () => {
    const user = github.addUser({ login: 'before-rename' });
    const first = await signIn(t, github, user);
    expect(first.statusCode).toBe(200);

    user.login = 'after-rename';
    user.avatar_url = 'https://avatars.example.test/u/new-picture';
    const second = await signIn(t, github, user);
    expect(second.statusCode).toBe(200);
    expect(second.json().user).toEqual({ ...first.json().user, username: 'after-rename', avatar_url: user.avatar_url });
    expect(await usersWithScmId(t, user.id)).toHaveLength(1);
    // The personal organization follows the rename too.
    expect(await organizationLogins(t, second.json().token)).toEqual(['after-rename']);
  });

  it('still signs in when GitHub will not list memberships, keeping the personal organization', async () => {
    github.fail('memberships', { status: 403, body: { message: 'Resource not accessible by integration' } });
    const res = await signIn(t, github, github.addUser({ login: 'no-read-org' }));
    expect(res.statusCode).toBe(200);
    expect(await organizationLogins(t, res.json().token)).toEqual(['no-read-org']);
  });
});
