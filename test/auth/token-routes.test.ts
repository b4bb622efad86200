import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkApiToken } from '../../src/auth/api-token-format.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { bearer, expectApiError, expectReducedError } from './error-bodies.js';

/**
 * Spec 4.1 token endpoints as decisions §2 completes them: POST / GET / DELETE /api/auth/tokens,
 * all behind the sign-in JWT, answering the reduced error shape of spec 7.1.
 */
let t: TestApp;
let jwt: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ jwt } = await t.createUser());
});
afterAll(async () => t.close());

const DAY = 24 * 3600;
const SCOPES_TEXT = 'review:read, review:write, org:read, org:write, team:read, team:write';

const create = (payload: unknown, headers: Record<string, string> = bearer(jwt)) =>
  t.app.inject({ method: 'POST', url: '/api/auth/tokens', headers, payload: payload as object });
const list = (headers: Record<string, string> = bearer(jwt)) =>
  t.app.inject({ method: 'GET', url: '/api/auth/tokens', headers });
const revoke = (id: string, headers: Record<string, string> = bearer(jwt)) =>
  t.app.inject({ method: 'DELETE', url: `/api/auth/tokens/${id}`, headers });
const orgs = (token: string) => t.app.inject({ method: 'GET', url: '/v1/organizations', headers: bearer(token) });

async function issue(body: object = {}): Promise<{ id: string; token: string }> {
  const res = await create({ name: 'ci', scopes: ['org:read'], ...body });
  expect(res.statusCode).toBe(201);
  return res.json();
}

describe('POST /api/auth/tokens validation', () => {
  const valid = { name: 'ci', scopes: ['review:read'], expires_in: 3600 };
  it.each<[string, object, string]>([
    ['an empty name', { name: '' }, 'Invalid name: must be 1 to 100 characters'],
    ['a blank name', { name: '   ' }, 'Invalid name: must be 1 to 100 characters'],
    ['a 101-character name', { name: 'n'.repeat(101) }, 'Invalid name: must be 1 to 100 characters'],
    ['a missing name', { name: undefined }, 'Invalid name: Invalid input: expected string, received undefined'],
    ['no scopes', { scopes: [] }, 'Invalid scopes: must name at least one scope'],
    ['an unknown scope', { scopes: ['nope'] }, `Invalid scopes: must each be one of ${SCOPES_TEXT}`],
    [
      'an unknown scope among good ones',
      { scopes: ['org:read', 'org:admin'] },
      `Invalid scopes: must each be one of ${SCOPES_TEXT}`,
    ],
    ['scopes not a list', { scopes: 'org:read' }, 'Invalid scopes: Invalid input: expected array, received string'],
    ['expires_in 59', { expires_in: 59 }, 'Invalid expires_in: must be at least 60 seconds'],
    [
      'expires_in 31536001',
      { expires_in: 31_536_001 },
      'Invalid expires_in: must be at most 31536000 seconds (365 days)',
    ],
    ['expires_in 1.5', { expires_in: 1.5 }, 'Invalid expires_in: must be a whole number of seconds'],
    ['expires_in as a string', { expires_in: '60' }, 'Invalid expires_in: must be a whole number of seconds'],
    ['mode prod', { mode: 'prod' }, 'Invalid mode: Invalid option: expected one of "live"|"test"'],
  ])('%s answers 400 validation_error naming the field', async (_name, change, message) => {
    expectReducedError(await create({ ...valid, ...change }), { status: 400, code: 'validation_error', message });
  });

  it('answers 400 invalid_request for a body that is not a JSON object', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: { ...bearer(jwt), 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expectReducedError(res, { status: 400, code: 'invalid_request', message: 'Request body is not valid JSON' });
    expectReducedError(await create([valid]), {
      status: 400,
      code: 'invalid_request',
      message: 'Request body must be a JSON object',
    });
  });

  it('checks the credential before the body: no validation feedback without a JWT', async () => {
    const missing = { status: 401, code: 'unauthorized', message: 'Missing bearer token' };
    expectReducedError(await create({ name: '' }, {}), missing);
    const notJson = await t.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expectReducedError(notJson, missing);
  });

  it('accepts the bounds', async () => {
    for (const body of [
      { name: 'n', expires_in: 60 },
      { name: 'n'.repeat(100), expires_in: 31_536_000 },
    ]) {
      expect((await create({ ...valid, ...body })).statusCode).toBe(201);
    }
  });
});

describe('POST /api/auth/tokens success', () => {
  it('answers 201 with the token once, and exactly the record keys', async () => {
    const res = await create({ name: 'deploy bot', scopes: ['review:read', 'review:write'], expires_in: 3600 });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['created_at', 'expires_at', 'id', 'mode', 'name', 'scopes', 'token']);
    expect(body).toMatchObject({ name: 'deploy bot', scopes: ['review:read', 'review:write'], mode: 'live' });
    expect(body.id).toMatch(/^tok_[0-9A-Za-z]+$/);
    expect(body.token.startsWith(`svc_${'live'}_`)).toBe(true);
    expect(checkApiToken(body.token)).toEqual({ ok: true, mode: 'live' });
    expect(body.created_at).toBe(t.clock.now().toISOString());
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(3600 * 1000);
  });

  it('defaults to 90 days and to live mode', async () => {
    const body = (await create({ name: 'default', scopes: ['org:read'] })).json();
    expect(Date.parse(body.expires_at) - Date.parse(body.created_at)).toBe(90 * DAY * 1000);
    expect(body.mode).toBe('live');
  });

  it('mode test gives a svc_test_ token that works on /v1', async () => {
    const body = (await create({ name: 'sandbox', scopes: ['org:read'], mode: 'test' })).json();
    expect(body.mode).toBe('test');
    expect(body.token.startsWith(`svc_${'test'}_`)).toBe(true);
    expect((await orgs(body.token)).statusCode).toBe(200);
  });

  it('keeps each scope once and trims the name', async () => {
    const body = (await create({ name: '  ci  ', scopes: ['org:read', 'org:read'] })).json();
    expect(body).toMatchObject({ name: 'ci', scopes: ['org:read'] });
  });
});

describe('the token endpoints refuse API tokens (decisions §2)', () => {
  it('answers 401 unauthorized on all three endpoints, whichever header carries it', async () => {
    const { id, token } = await issue({ scopes: ['org:read', 'org:write', 'team:write'] });
    const message = 'API tokens cannot manage tokens; use the JWT from sign-in';
    for (const headers of [bearer(token), { 'x-api-key': token }]) {
      expectReducedError(await create({ name: 'x', scopes: ['org:read'] }, headers), {
        status: 401,
        code: 'unauthorized',
        message,
      });
      expectReducedError(await list(headers), { status: 401, code: 'unauthorized', message });
      expectReducedError(await revoke(id, headers), { status: 401, code: 'unauthorized', message });
    }
    // The refused DELETE revoked nothing.
    expect((await orgs(token)).statusCode).toBe(200);
  });
});

describe('GET /api/auth/tokens', () => {
  it("lists the caller's unrevoked tokens, with last_used, never the token or its hash", async () => {
    const { user: owner, jwt: ownerJwt } = await t.createUser();
    const { user: other, jwt: otherJwt } = await t.createUser();
    const a = (await create({ name: 'a', scopes: ['org:read'], expires_in: 600 }, bearer(ownerJwt))).json();
    t.clock.advance(1000);
    const b = (await create({ name: 'b', scopes: ['team:read'], mode: 'test' }, bearer(ownerJwt))).json();
    t.clock.advance(1000);
    const gone = (await create({ name: 'gone', scopes: ['org:read'] }, bearer(ownerJwt))).json();
    expect((await revoke(gone.id, bearer(ownerJwt))).statusCode).toBe(200);
    await create({ name: 'theirs', scopes: ['org:read'] }, bearer(otherJwt));
    expect(other.id).not.toBe(owner.id);

    const res = await list(bearer(ownerJwt));
    expect(res.statusCode).toBe(200);
    const record = (token: typeof a, name: string, scopes: string[], mode: string) => ({
      id: token.id,
      name,
      scopes,
      mode,
      last_used: null,
      created_at: token.created_at,
      expires_at: token.expires_at,
    });
    // Newest first; exact equality also proves no `token` or `token_hash` key is present.
    expect(res.json()).toEqual({
      tokens: [record(b, 'b', ['team:read'], 'test'), record(a, 'a', ['org:read'], 'live')],
    });
    expect(res.body).not.toContain(a.token);
    expect(res.body).not.toContain(b.token);

    expect((await orgs(a.token)).statusCode).toBe(200);
    const [, used] = (await list(bearer(ownerJwt))).json().tokens;
    expect(used).toMatchObject({ id: a.id, last_used: t.clock.now().toISOString() });
  });
});

describe('DELETE /api/auth/tokens/:token_id', () => {
  it('revokes the token, which then stops working; a second DELETE is 404', async () => {
    const { id, token } = await issue();
    expect((await orgs(token)).statusCode).toBe(200);

    const res = await revoke(id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: `Token ${id} revoked` });
    expectApiError(await orgs(token), t.clock, {
      status: 401,
      code: 'invalid_api_key',
      message: 'API key has been revoked',
    });

    expectReducedError(await revoke(id), { status: 404, code: 'resource_not_found', message: 'Token not found' });
  });

  it("answers 404 for another user's token and for an unknown id, and revokes nothing", async () => {
    const { jwt: otherJwt } = await t.createUser();
    const { id, token } = await issue();
    expectReducedError(await revoke(id, bearer(otherJwt)), {
      status: 404,
      code: 'resource_not_found',
      message: 'Token not found',
    });
    expect((await orgs(token)).statusCode).toBe(200);
    expectReducedError(await revoke('tok_doesnotexist'), {
      status: 404,
      code: 'resource_not_found',
      message: 'Token not found',
    });
  });

  it('answers 401 without a JWT', async () => {
    const { id } = await issue();
    expectReducedError(await revoke(id, {}), { status: 401, code: 'unauthorized', message: 'Missing bearer token' });
  });
});
