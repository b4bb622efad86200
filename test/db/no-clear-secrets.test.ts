import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Decisions §2: only a hash of an API token is stored. After issuing, using, listing and revoking
 * tokens through the API, no value anywhere in the database may contain a token (or the JWT, or
 * the JWT secret), in clear, hex or base64. Tables and columns are discovered, not listed, so a
 * table added later is covered too.
 */
let t: TestApp;
let jwt: string;
const issued: { id: string; token: string }[] = [];

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

beforeAll(async () => {
  t = await createTestApp();
  ({ jwt } = await t.createUser());
  const headers = { authorization: `Bearer ${jwt}` };
  for (const mode of ['live', 'test', 'live'] as const) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/tokens',
      headers,
      payload: { name: `token ${mode}`, scopes: ['org:read', 'review:read'], mode },
    });
    expect(res.statusCode).toBe(201);
    const { id, token } = res.json();
    issued.push({ id, token });
    // Use each token on both headers, and try it where it is refused, so every code path that
    // might record it has run.
    for (const h of [{ authorization: `Bearer ${token}` }, { 'x-api-key': token }]) {
      expect((await t.app.inject({ method: 'GET', url: '/v1/organizations', headers: h })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/api/auth/tokens', headers: h })).statusCode).toBe(401);
    }
  }
  expect((await t.app.inject({ method: 'GET', url: '/api/auth/tokens', headers })).statusCode).toBe(200);
  const [revoked] = issued;
  if (!revoked) throw new Error('no token issued');
  expect((await t.app.inject({ method: 'DELETE', url: `/api/auth/tokens/${revoked.id}`, headers })).statusCode).toBe(
    200,
  );
});
afterAll(async () => t.close());

/** Every value of every column of every row of every table in the public schema, as text. */
async function dumpPublicSchema(): Promise<Map<string, string[]>> {
  const { db } = t.database;
  const { rows: columns } = await sql<{ table: string; column: string }>`
    select c.table_name as "table", c.column_name as "column"
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const { table, column } of columns) {
    byTable.set(table, [...(byTable.get(table) ?? []), column]);
  }
  const dump = new Map<string, string[]>();
  for (const [table, cols] of byTable) {
    const selected = sql.join(cols.map((c) => sql`${sql.ref(c)}::text`));
    const { rows } = await sql<Record<string, string | null>>`select ${selected} from ${sql.table(table)}`.execute(db);
    dump.set(
      table,
      rows.flatMap((row) => Object.values(row).filter((v): v is string => v !== null)),
    );
  }
  return dump;
}

describe('the database holds no clear secret', () => {
  it('no value in any table contains an issued token, the JWT or the JWT secret', async () => {
    const dump = await dumpPublicSchema();
    // Sanity: the discovery found the tables this test is about, and they hold data.
    expect([...dump.keys()]).toEqual(expect.arrayContaining(['users', 'api_tokens']));
    expect(dump.get('api_tokens')?.length).toBeGreaterThan(0);

    const secrets = [...issued.map((i) => i.token), jwt, t.secrets.jwtSecret];
    const encodings = secrets.flatMap((s) => [
      s,
      Buffer.from(s).toString('hex'),
      Buffer.from(s).toString('base64'),
      Buffer.from(s).toString('base64url'),
    ]);
    // The random part alone would be as good as the token to anyone who knows the format.
    const randomParts = issued.map((i) => i.token.slice('svc_live_'.length, -6));
    const leaks: string[] = [];
    for (const [table, values] of dump) {
      for (const value of values) {
        for (const needle of [...encodings, ...randomParts]) {
          if (value.includes(needle)) leaks.push(`${table}: ${value.slice(0, 20)}…`);
        }
      }
    }
    expect(leaks).toEqual([]);
  });

  it('stores token_hash as the SHA-256 hex of the whole token, for revoked tokens too', async () => {
    const rows = await t.database.db.selectFrom('api_tokens').select(['id', 'token_hash', 'revoked_at']).execute();
    expect(rows).toHaveLength(issued.length);
    for (const { id, token } of issued) {
      const row = rows.find((r) => r.id === id);
      expect(row?.token_hash).toBe(sha256(token));
      expect(row?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(rows.filter((r) => r.revoked_at !== null).map((r) => r.id)).toEqual([issued[0]?.id]);
  });
});
