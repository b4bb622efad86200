import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FakeGitHub } from './fake-github.js';
import { json } from './fake-github-http.js';
import { type FakeGitHubStore, randomToken } from './fake-github-store.js';
import type { FakeUser } from './fake-github-types.js';

/** POST /login/oauth/access_token: GitHub answers 200 even for refusals, with `error` in the body. */
export function accessToken(
  fake: FakeGitHub,
  store: FakeGitHubStore,
  req: IncomingMessage,
  res: ServerResponse,
  form: URLSearchParams | null,
) {
  const wantsJson = (req.headers.accept ?? '').includes('application/json');
  const answer = (fields: Record<string, string>) => {
    if (wantsJson) return json(res, 200, fields);
    res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' });
    res.end(new URLSearchParams(fields).toString());
  };
  const refuse = (error: string, description: string) => answer({ error, error_description: description });
  const field = (name: string) => form?.get(name) ?? '';

  if (field('client_id') !== fake.clientId || field('client_secret') !== fake.clientSecret) {
    return refuse('incorrect_client_credentials', 'The client_id and/or client_secret passed are incorrect.');
  }
  const issued = store.codes.get(field('code'));
  if (issued === undefined || issued.used || issued.expiresAt <= Date.now()) {
    return refuse('bad_verification_code', 'The code passed is incorrect or expired.');
  }
  if (field('redirect_uri') !== issued.redirectUri) {
    return refuse(
      'redirect_uri_mismatch',
      'The redirect_uri MUST match the registered callback URL for this application.',
    );
  }
  const challenge = createHash('sha256').update(field('code_verifier')).digest('base64url');
  if (challenge !== issued.codeChallenge) {
    return refuse('bad_verification_code', 'The code_verifier does not match the code_challenge.');
  }
  issued.used = true;
  const token = randomToken('gh' + 'o_');
  fake.issuedTokens.push({ token, userId: issued.userId, scope: issued.scope });
  return answer({ access_token: token, token_type: 'bearer', scope: issued.scope });
}

/** Accepts `Authorization: token X` and `Bearer X`, as GitHub does. */
export function authenticated(fake: FakeGitHub, store: FakeGitHubStore, req: IncomingMessage): FakeUser | undefined {
  const match = /^(?:token|bearer)\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  const issued = fake.issuedTokens.find((t) => t.token === match?.[1]);
  return issued === undefined ? undefined : store.users.get(issued.userId);
}

export function userJson(fake: FakeGitHub, user: FakeUser) {
  return {
    login: user.login,
    id: user.id,
    node_id: `U_${Buffer.from(String(user.id)).toString('base64url')}`,
    avatar_url: user.avatar_url,
    url: `${fake.apiUrl}/users/${user.login}`,
    html_url: `${fake.serverUrl}/${user.login}`,
    type: 'User',
    site_admin: false,
    name: user.name,
    email: user.email,
  };
}
