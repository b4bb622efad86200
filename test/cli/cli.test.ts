import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { checkApiToken, hashSecret } from '../../src/auth/api-token-format.js';
import { COMMAND_USAGE, commandOf } from '../../src/cli/help.js';
import { main, USAGE } from '../../src/cli/main.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.js';
import { HANG_MS } from '../helpers/until.js';

// Decisions §9, the command line, run in-process through main(argv, env, io) on a database of its
// own (a temp DATA_DIR, or a new database on the PostgreSQL server in that run); `serve` and the
// stdout contract run the real bin/redline.js as a child process.

const ROOT = path.resolve(import.meta.dirname, '../..');
const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'redline-cli-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

interface Target {
  env: Record<string, string>;
  /** Opens the same database as the commands do (close it before the next embedded command). */
  open(): Promise<DatabaseHandle>;
}

/** An empty database for the commands: a fresh DATA_DIR, or a fresh database on PostgreSQL. */
async function freshTarget(): Promise<Target> {
  const adminUrl = inject('pgAdminUrl');
  const prefix = inject('pgRunPrefix');
  if (adminUrl && prefix) {
    const name = `${prefix}_cli_${randomBytes(4).toString('hex')}`;
    const admin = async (query: string) => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(query).finally(() => client.end());
    };
    await admin(`create database ${name}`);
    cleanups.push(() => admin(`drop database if exists ${name} with (force)`));
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const secrets = {
      JWT_SECRET: randomBytes(32).toString('base64url'),
      ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    };
    return {
      env: { DATABASE_URL: url.toString(), ...secrets, LOG_LEVEL: 'silent' },
      open: () => openDatabase({ url: url.toString(), poolSize: 1 }),
    };
  }
  const dir = await tempDir();
  return { env: { DATA_DIR: dir, LOG_LEVEL: 'silent' }, open: () => openDatabase({ dataDir: dir }) };
}

async function withDb<T>(target: Target, work: (db: DatabaseHandle['db']) => Promise<T>): Promise<T> {
  const handle = await target.open();
  try {
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

/** Runs one command in-process, collecting what it writes. */
async function run(argv: string[], env: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out, err: err.join('\n') };
}

describe('dashboard-link', () => {
  it('prints one line, a one-time link under PUBLIC_URL/app/, and keeps only its hash', async () => {
    const target = await freshTarget();
    const env = { ...target.env, PUBLIC_URL: 'https://redline.example' };
    const { code, out, err } = await run(['dashboard-link', '--user', 'erin'], env);
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    const match = /^https:\/\/redline\.example\/app\/#sign-in=([0-9A-Za-z]{43})$/.exec(out[0] as string);
    expect(match).not.toBeNull();
    expect(err).toMatch(/^created local user erin \(usr_[0-9A-Za-z]+\)\nsign-in link for erin, one use, until \d{4}-/);
    expect(err).not.toContain(match?.[1]);
    await withDb(target, async (db) => {
      const rows = await db
        .selectFrom('dashboard_sign_in_links')
        .innerJoin('users', 'users.id', 'user_id')
        .selectAll()
        .execute();
      expect(rows.map((r) => ({ hash: r.code_hash, username: r.username }))).toEqual([
        { hash: hashSecret(match?.[1] as string), username: 'erin' },
      ]);
    });
  });

  it('needs --user (usage error, 2)', async () => {
    const { code, err } = await run(['dashboard-link'], {});
    expect(code).toBe(2);
    expect(err).toMatch(/--user is required/);
  });
});

describe('token create', () => {
  let target: Target;
  let aliceId: string;
  beforeAll(async () => {
    target = await freshTarget();
  });

  it('prints exactly one line, a valid svc_live_ token, and makes local user alice with her organization', async () => {
    const { code, out, err } = await run(
      ['token', 'create', '--user', 'alice', '--scopes', 'review:read,org:read'],
      target.env,
    );
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    const token = out[0] as string;
    expect(token).toMatch(/^svc_live_[0-9A-Za-z]{38}$/);
    expect(checkApiToken(token)).toEqual({ ok: true, mode: 'live' });
    expect(err).toMatch(/^created local user alice \(usr_[0-9A-Za-z]+\)$/m);
    expect(err).not.toContain(token);

    await withDb(target, async (db) => {
      const users = await db.selectFrom('users').selectAll().execute();
      expect(users.map((u) => [u.username, u.scm_id])).toEqual([['alice', null]]);
      aliceId = (users[0] as { id: string }).id;
      const orgs = await db
        .selectFrom('memberships')
        .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
        .select(['login', 'kind', 'role'])
        .where('user_id', '=', aliceId)
        .execute();
      expect(orgs).toEqual([{ login: 'alice', kind: 'user', role: 'admin' }]);
      // Stored as a hash only, with the scopes asked for.
      const row = await db.selectFrom('api_tokens').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ user_id: aliceId, token_hash: hashSecret(token), mode: 'live', name: 'cli' });
      expect(row.scopes).toEqual(['review:read', 'org:read']);
    });
  });

  it('gives svc_test_ with --test and reuses alice on a second call', async () => {
    const { code, out, err } = await run(
      ['token', 'create', '--user', 'alice', '--scopes', 'org:read', '--test', '--expires-in', '60'],
      target.env,
    );
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    expect(checkApiToken(out[0] as string)).toEqual({ ok: true, mode: 'test' });
    expect(err).not.toContain('created local user');
    await withDb(target, async (db) => {
      expect((await db.selectFrom('users').select('id').execute()).map((u) => u.id)).toEqual([aliceId]);
      const row = await db
        .selectFrom('api_tokens')
        .selectAll()
        .where('token_hash', '=', hashSecret(out[0] as string))
        .executeTakeFirstOrThrow();
      expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(60_000);
    });
  });

  it('takes a usr_ id for --user', async () => {
    const { code, out } = await run(['token', 'create', '--user', aliceId, '--scopes', 'org:read'], target.env);
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
  });

  it('exits 1 for a usr_ id that does not exist', async () => {
    const argv = ['token', 'create', '--user', 'usr_doesnotexist', '--scopes', 'org:read'];
    expect(await run(argv, target.env)).toEqual({ code: 1, out: [], err: 'redline: no user usr_doesnotexist' });
  });
});

describe('usage errors', () => {
  // DATA_DIR under /dev/null cannot be opened: a 2 here also proves no database was touched.
  const env = { DATA_DIR: '/dev/null/redline', LOG_LEVEL: 'silent' };
  it.each([
    ['bad scopes', ['token', 'create', '--user', 'alice', '--scopes', 'review:read,root'], 'unknown: root'],
    ['no scopes', ['token', 'create', '--user', 'alice'], '--scopes is required'],
    ['missing --user', ['token', 'create', '--scopes', 'org:read'], '--user is required'],
    ['a bad username', ['token', 'create', '--user', 'no spaces', '--scopes', 'org:read'], '--user must be'],
    ['--expires-in 5', ['token', 'create', '--user', 'a', '--scopes', 'org:read', '--expires-in', '5'], '--expires-in'],
    ['an unknown option', ['token', 'create', '--user', 'a', '--scopes', 'org:read', '--bogus'], '--bogus'],
    ['token without create', ['token', 'list'], 'token create'],
    ['an unknown command', ['frobnicate'], 'unknown command "frobnicate"'],
    ['a bad plan', ['plan', 'set', 'org_abc', 'gold'], 'plan must be free, pro or enterprise (got "gold")'],
    ['a bad plan target', ['plan', 'set', 'team_abc', 'pro'], 'is not a usr_ or org_ id'],
    ['plan set without a plan', ['plan', 'set', 'org_abc'], 'usage: redline plan set'],
    ['serve with a bad role', ['serve', '--role', 'boss'], '--role must be api, worker or all'],
    ['migrate with an argument', ['migrate', 'now'], 'migrate takes no arguments'],
  ])('exits 2 on %s, with the usage of the command on stderr', async (_what, argv, message) => {
    const { code, out, err } = await run(argv, env);
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err).toMatch(/^redline: /);
    expect(err).toContain(message);
    const command = commandOf(argv);
    expect(err.endsWith(command === undefined ? USAGE : COMMAND_USAGE[command])).toBe(true);
  });

  it('prints the usage on stdout for help (0) and for no command (2)', async () => {
    expect(await run(['help'], env)).toEqual({ code: 0, out: [USAGE], err: '' });
    expect(await run([], env)).toEqual({ code: 2, out: [USAGE], err: '' });
  });
});

describe('plan set and migrate', () => {
  let target: Target;
  beforeAll(async () => {
    target = await freshTarget();
  });

  it('migrate applies every migration on a fresh database, then reports it up to date', async () => {
    const first = await run(['migrate'], target.env);
    expect(first.code).toBe(0);
    expect(first.err).toMatch(/^applied: 0001-accounts(, [0-9]{4}-[a-z0-9-]+)*$/);
    expect(await run(['migrate'], target.env)).toEqual({ code: 0, out: [], err: 'database is up to date' });
  });

  it('changes the plan of an organization and of a user', async () => {
    expect((await run(['token', 'create', '--user', 'bob', '--scopes', 'org:read'], target.env)).code).toBe(0);
    const ids = await withDb(target, (db) =>
      db
        .selectFrom('users')
        .innerJoin('organizations', 'organizations.login', 'users.username')
        .select(['users.id as user', 'organizations.id as org'])
        .where('username', '=', 'bob')
        .executeTakeFirstOrThrow(),
    );
    expect(await run(['plan', 'set', ids.org, 'pro'], target.env)).toEqual({
      code: 0,
      out: [],
      err: `${ids.org} is now on the pro plan`,
    });
    expect((await run(['plan', 'set', ids.user, 'enterprise'], target.env)).code).toBe(0);
    await withDb(target, async (db) => {
      const org = await db
        .selectFrom('organizations')
        .select('plan')
        .where('id', '=', ids.org)
        .executeTakeFirstOrThrow();
      const user = await db.selectFrom('users').select('plan').where('id', '=', ids.user).executeTakeFirstOrThrow();
      expect([org.plan, user.plan]).toEqual(['pro', 'enterprise']);
    });
  });

  it('exits 1 for an id that does not exist', async () => {
    expect(await run(['plan', 'set', 'org_doesnotexist', 'pro'], target.env)).toEqual({
      code: 1,
      out: [],
      err: 'redline: no user or organization org_doesnotexist',
    });
  });
});

describe('bin/redline.js', () => {
  const pexec = promisify(execFile);
  let dataDir: string;
  let child: ChildProcess | undefined;
  const childEnv = (extra: Record<string, string>) => ({
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? os.tmpdir(),
    DATA_DIR: dataDir,
    ...extra,
  });

  beforeAll(async () => {
    // The bin runs the compiled build/, which the global setup compiles from these sources.
    dataDir = await tempDir();
  });

  afterAll(() => {
    if (child?.exitCode === null) child.kill('SIGKILL');
  });

  it('token create writes only the token to stdout, logs included', async () => {
    // A fresh DATA_DIR: the migration is logged, and must not land on stdout next to the token.
    const { stdout, stderr } = await pexec(
      process.execPath,
      ['bin/redline.js', 'token', 'create', '--user', 'admin', '--scopes', 'org:read'],
      { cwd: ROOT, env: childEnv({ LOG_LEVEL: 'info' }) },
    );
    expect(stdout).toMatch(/^svc_live_[0-9A-Za-z]{38}\n$/);
    expect(stderr).toContain('database migrated');
  });

  it('serve answers, holds the data directory, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const proc = spawn(process.execPath, ['bin/redline.js', 'serve'], {
      cwd: ROOT,
      env: childEnv({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' }),
    });
    child = proc;
    let stdout = '';
    let stderr = '';
    proc.stdout?.on('data', (chunk) => {
      stdout += chunk;
    });
    proc.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = new Promise<[number | null, string | null]>((resolve) => {
      proc.on('exit', (code, signal) => resolve([code, signal]));
    });

    const base = `http://127.0.0.1:${port}`;
    await waitFor(
      async () => (await fetch(`${base}/healthz`)).status === 200,
      () => `${stdout}\n${stderr}`,
    );
    const ready = await fetch(`${base}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
    const openapi = await fetch(`${base}/v1/openapi.json`);
    expect(openapi.status).toBe(200);
    expect(((await openapi.json()) as { openapi: string }).openapi).toBe('3.1.0');

    // While serve holds the embedded database, another command on it is refused.
    const second = await run(['token', 'create', '--user', 'admin', '--scopes', 'org:read'], {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
    });
    expect(second.code).toBe(1);
    expect(second.err).toContain(`is in use by process ${proc.pid}`);

    proc.kill('SIGTERM');
    expect(await exited).toEqual([0, null]);
    const messages = stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toContain('Redline is serving');
    expect(messages.at(-1)).toBe('stopped');
    expect(stderr).toBe('');
    // The lock went with it.
    await expect(stat(path.join(dataDir, 'redline.pid'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitFor(check: () => Promise<boolean>, context: () => string, timeoutMs = HANG_MS) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out; output so far:\n${context()}`);
}
