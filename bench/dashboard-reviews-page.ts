// The dashboard's reviews page on 10,000 reviews (issue 19): how many API round trips a page of
// the list takes and how long the browser takes from asking to showing it, first load and next
// page, in Debian's chromium. A measurement, not a test: it prints its figures and exits 0.
//
//   npm run bench:dashboard                 embedded database (a temporary DATA_DIR)
//   DATABASE_URL=postgres://… npm run bench:dashboard   a new database on that server, dropped after
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { createLocalUser } from '../src/auth/accounts.js';
import { issueSignInLink } from '../src/auth/dashboard-sessions.js';
import { newId } from '../src/common/ids.js';
import { loadConfig } from '../src/config/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { buildApp } from '../src/http/build-app.js';

const REVIEWS = 10_000;
const ROUNDS = 5;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main() {
  const work = mkdtempSync(path.join(tmpdir(), 'redline-bench-dashboard-'));
  const adminUrl = process.env.DATABASE_URL;
  const benchName = `redline_bench_dashboard_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  let url: string | undefined;
  if (adminUrl) {
    await admin(`create database ${benchName}`);
    const target = new URL(adminUrl);
    target.pathname = `/${benchName}`;
    url = target.toString();
  }
  const database = await openDatabase(url ? { url, poolSize: 5 } : { dataDir: path.join(work, 'data') });
  await migrateToLatest(database.db);
  const db = database.db;

  const user = await createLocalUser(db, `bench-${randomBytes(3).toString('hex')}`);
  const membership = await db
    .selectFrom('memberships')
    .select('organization_id')
    .where('user_id', '=', user.id)
    .executeTakeFirstOrThrow();
  // 10,000 reviews a minute apart, in batches of 1,000 rows a statement.
  const start = Date.now() - REVIEWS * 60_000;
  for (let batch = 0; batch < REVIEWS / 1000; batch++) {
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const n = batch * 1000 + i;
      return {
        id: newId('rev'),
        user_id: user.id,
        organization_id: membership.organization_id,
        mode: 'live' as const,
        status: n % 7 === 0 ? ('failed' as const) : ('cancelled' as const),
        pr_url: `https://github.com/acme/repo-${n % 50}/pull/${n + 1}`,
        pr_number: n + 1,
        pr_title: `Change number ${n + 1}`,
        repository: `acme/repo-${n % 50}`,
        repository_id: String(1000 + (n % 50)),
        branch: 'feature',
        author: 'octocat',
        options: JSON.stringify({}),
        error_code: n % 7 === 0 ? 'github_error' : null,
        error_message: n % 7 === 0 ? 'GitHub answered 500' : null,
        created_at: new Date(start + n * 60_000),
        updated_at: new Date(start + n * 60_000),
      };
    });
    await db.insertInto('reviews').values(rows).execute();
  }
  await sql`analyze reviews`.execute(db);

  const dir = path.join(work, 'dashboard');
  const { buildDashboard } = await import(pathToFileURL(path.join(root, 'scripts/build-dashboard.mjs')).href);
  await buildDashboard(dir);
  const app = await buildApp({
    config: loadConfig({ PUBLIC_URL: 'http://127.0.0.1', SIGN_IN_RATE_LIMIT: '1000000' }),
    database,
    secrets: { jwtSecret: randomBytes(32).toString('base64url'), encryptionKey: randomBytes(32) },
    dashboardDir: dir,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  const base = `http://127.0.0.1:${address.port}`;

  const executablePath = execFileSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' }).trim();
  const browser = await chromium.launch({ executablePath, args: process.getuid?.() === 0 ? ['--no-sandbox'] : [] });
  const page = await browser.newPage();
  let apiCalls: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/v1/') || pathname.startsWith('/api/')) apiCalls.push(`${request.method()} ${pathname}`);
  });
  await page.goto(`${base}/app/#sign-in=${await issueSignInLink(db, user.id, new Date())}`);
  await page.locator('table.reviews tbody tr').first().waitFor();

  const firstLoad: number[] = [];
  const nextPage: number[] = [];
  let firstCalls: string[] = [];
  let nextCalls: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    apiCalls = [];
    let began = Date.now();
    // A fresh load of the page (not a change of fragment): the session, then the list.
    await page.goto('about:blank');
    await page.goto(`${base}/app/#/reviews`);
    await page.locator('table.reviews tbody tr').nth(24).waitFor();
    firstLoad.push(Date.now() - began);
    firstCalls = apiCalls;

    apiCalls = [];
    began = Date.now();
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.waitForURL(/after=/);
    await page.locator('table.reviews tbody tr').nth(24).waitFor();
    nextPage.push(Date.now() - began);
    nextCalls = apiCalls;
  }
  const rows = await page.locator('table.reviews tbody tr').count();

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(
    `dashboard reviews page, ${REVIEWS} reviews, ${url ? 'PostgreSQL' : 'PGlite'}, chromium, ${ROUNDS} rounds`,
  );
  console.log(`  first load (session + list): ${firstCalls.length} API calls (${firstCalls.join(', ')})`);
  console.log(`    shown in ms: ${firstLoad.join(', ')}; median ${median(firstLoad)}`);
  console.log(`  next page: ${nextCalls.length} API call(s) (${nextCalls.join(', ')}), ${rows} rows`);
  console.log(`    shown in ms: ${nextPage.join(', ')}; median ${median(nextPage)}`);

  await browser.close();
  await app.close();
  await database.close();
  if (adminUrl) await admin(`drop database if exists ${benchName} with (force)`);
  rmSync(work, { recursive: true, force: true });
}

await main();
