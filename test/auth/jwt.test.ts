import { randomBytes } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWT_AUDIENCE, jwtKeys, signUserJwt, verifyUserJwt } from '../../src/auth/jwt.js';
import type { UserRow } from '../../src/db/schema.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { bearer, expectApiError, expectReducedError } from './error-bodies.js';

/**
 * Decisions §2: the sign-in JWT is HS256 only, iss = PUBLIC_URL, aud = redline, sub = a user id,
 * one hour. Every forgery below must answer 401: `invalid_api_key` on /v1, `unauthorized` on the
 * token endpoints (spec 7.3).
 */
let t: TestApp;
let user: UserRow;
let jwt: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ user, jwt } = await t.createUser());
});
afterAll(async () => t.close());

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

interface Claims {
  sub?: string;
  iss?: string;
  aud?: string;
  lifetime?: number | null;
  alg?: string;
  secret?: Uint8Array;
}

/** A JWT like ours, with one thing changed; built with jose, not with the code under test. */
async function sign(claims: Claims = {}): Promise<string> {
  const iat = seconds(t.clock.now());
  const builder = new SignJWT({})
    .setProtectedHeader({ alg: claims.alg ?? 'HS256', typ: 'JWT' })
    .setSubject(claims.sub ?? user.id)
    .setIssuer(claims.iss ?? t.config.publicUrl)
    .setAudience(claims.aud ?? 'redline')
    .setIssuedAt(iat);
  if (claims.lifetime !== null) builder.setExpirationTime(iat + (claims.lifetime ?? 3600));
  return builder.sign(claims.secret ?? new TextEncoder().encode(t.secrets.jwtSecret));
}

/** alg "none": a header and payload with an empty signature, which jose will not even build. */
function unsigned(): string {
  const iat = seconds(t.clock.now());
  const payload = { sub: user.id, iss: t.config.publicUrl, aud: 'redline', iat, exp: iat + 3600 };
  return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;
}

async function expectRefused(credential: string): Promise<void> {
  const v1 = await t.app.inject({ method: 'GET', url: '/v1/organizations', headers: bearer(credential) });
  expectApiError(v1, t.clock, {
    status: 401,
    code: 'invalid_api_key',
    message: 'API key or token is invalid or expired',
  });
  const tokens = await t.app.inject({ method: 'GET', url: '/api/auth/tokens', headers: bearer(credential) });
  expectReducedError(tokens, { status: 401, code: 'unauthorized', message: 'Token is invalid or expired' });
}

describe('a genuine JWT', () => {
  it('carries the claims of decisions §2', () => {
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = decodeJwt(jwt);
    expect(claims).toEqual({
      sub: user.id,
      iss: 'http://redline.test',
      aud: 'redline',
      iat: seconds(t.clock.now()),
      exp: seconds(t.clock.now()) + 3600,
    });
    expect(JWT_AUDIENCE).toBe('redline');
  });

  it('opens /v1 (a JWT carries every scope) and the token endpoints', async () => {
    const v1 = await t.app.inject({ method: 'GET', url: '/v1/organizations', headers: bearer(jwt) });
    expect(v1.statusCode).toBe(200);
    expect(v1.json().data.map((o: { login: string }) => o.login)).toEqual([user.username]);
    const tokens = await t.app.inject({ method: 'GET', url: '/api/auth/tokens', headers: bearer(jwt) });
    expect(tokens.statusCode).toBe(200);
    expect(tokens.json()).toEqual({ tokens: [] });
  });

  it('is also accepted when built by jose with the same recipe (the test forger is faithful)', async () => {
    const v1 = await t.app.inject({ method: 'GET', url: '/v1/organizations', headers: bearer(await sign()) });
    expect(v1.statusCode).toBe(200);
  });
});

describe('forged or foreign JWTs answer 401 on both surfaces', () => {
  const otherSecret = () => new Uint8Array(randomBytes(32));
  const cases: [string, () => Promise<string> | string][] = [
    ['alg none', unsigned],
    ['alg none with a copied signature', () => `${unsigned()}${jwt.split('.')[2]}`],
    ['signed with another key', () => sign({ secret: otherSecret() })],
    ['another audience', () => sign({ aud: 'someone-else' })],
    ['another issuer', () => sign({ iss: 'http://evil.test' })],
    ['HS512 with the right secret (only HS256 is accepted)', () => sign({ alg: 'HS512' })],
    ['HS384 with the right secret', () => sign({ alg: 'HS384' })],
    ['no expiry', () => sign({ lifetime: null })],
    ['a sub that is not a usr_ id', () => sign({ sub: `org_${user.id.slice(4)}` })],
    ['a sub of a user that does not exist', () => sign({ sub: `usr_${randomBytes(11).toString('hex')}` })],
    [
      'a payload changed after signing',
      () => {
        const [header, , signature] = jwt.split('.');
        const claims = decodeJwt(jwt);
        return `${header}.${b64url({ ...claims, sub: `usr_${randomBytes(11).toString('hex')}` })}.${signature}`;
      },
    ],
    ['garbage', () => 'not-a-jwt'],
    ['three dotted pieces of garbage', () => 'a.b.c'],
  ];

  it.each(cases)('%s', async (_name, build) => {
    await expectRefused(await build());
  });
});

describe('expiry', () => {
  it('lets a JWT through for its hour, then refuses it', async () => {
    const start = t.clock.now();
    const { jwt: fresh } = await t.createUser();
    try {
      t.clock.advance(3599_000);
      const before = await t.app.inject({ method: 'GET', url: '/v1/organizations', headers: bearer(fresh) });
      expect(before.statusCode).toBe(200);
      t.clock.advance(2_000);
      await expectRefused(fresh);
    } finally {
      t.clock.set(start);
    }
  });
});

describe('verifyUserJwt', () => {
  it('returns the user id for our own token and undefined otherwise', async () => {
    const keys = jwtKeys(t.secrets.jwtSecret, t.config.publicUrl);
    const now = t.clock.now();
    const token = await signUserJwt(keys, user.id, now);
    expect(await verifyUserJwt(keys, token, now)).toBe(user.id);
    expect(await verifyUserJwt(jwtKeys('another secret', t.config.publicUrl), token, now)).toBeUndefined();
    expect(await verifyUserJwt(jwtKeys(t.secrets.jwtSecret, 'http://other.test'), token, now)).toBeUndefined();
    expect(await verifyUserJwt(keys, token, new Date(now.getTime() + 3601_000))).toBeUndefined();
    expect(await verifyUserJwt(keys, '', now)).toBeUndefined();
  });
});
