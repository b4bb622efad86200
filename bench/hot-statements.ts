/**
 * bench/hot-statements: what the statement every `GET /v1/reviews/:id` runs costs, in this
 * process (no HTTP): the counted authentication with the review read along (authenticateCounted
 * with countingLookups and REVIEW_READ_ALONG), and the counted authentication alone (what every
 * other route runs), each as the API runs it under load, `--batch` concurrent calls sharing one
 * statement, against the baseline in the same run, the same calls made one at a time (a
 * statement each, what every request paid before batching).
 *
 *   npm run bench:hot-statements [-- --db pglite|postgres|both] [-- --batch N] [-- --calls N]
 *                                [-- --json]
 *
 * Figures per call: Node CPU (this process, from /proc), PostgreSQL backend CPU (PostgreSQL only)
 * and calls a second. A fresh database each (bench-database.ts), 50 users with a test-mode token
 * and a review each; every call counts against its user's hourly budget, as a request would.
 * bench:api measures the whole request; this isolates the statements' share, and runs in seconds.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { authenticate } from '../src/auth/authenticate.js';
import { authenticateCounted, countingLookups } from '../src/auth/authenticate-counted.js';
import { jwtKeys } from '../src/auth/jwt.js';
import { systemClock } from '../src/common/clock.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { REVIEW_READ_ALONG } from '../src/reviews/repository/review-read-along.js';
import { ReviewService } from '../src/reviews/review-service.js';
import { createBenchDatabase, type DatabaseKind } from './api/bench-database.js';
import { machineLoad } from './api/machine-load.js';
import { type BenchOptions, parseBenchArgs, ROOT } from './api/parse-args.js';
import { cpuMeter } from './api/process-cpu.js';
import { seedUsers } from './api/seed-users.js';

interface Options extends BenchOptions {
  batch: number;
  calls: number;
}

function parseArgs(argv: string[]): Options {
  const defaults: Options = { databases: ['pglite', 'postgres'], batch: 28, calls: 20_000, root: ROOT, json: false };
  return parseBenchArgs(argv, defaults, (flag, value, options) => {
    const n = Number(value);
    if (flag === '--batch' && Number.isInteger(n) && n > 0 && n <= 200) options.batch = n;
    // Both statements are measured batched and alone: 4 x calls / 50 users stays inside 10,000 an hour.
    else if (flag === '--calls' && Number.isInteger(n) && n > 0 && n <= 100_000) options.calls = n;
    else return false;
    return true;
  });
}

interface Figures {
  nodeUsPerCall: number;
  databaseUsPerCall: number | null;
  callsPerSecond: number;
}

/** Runs `calls` calls of `call`, `concurrent` at a time; CPU and wall time after a warm-up. */
async function measure(
  call: (i: number) => Promise<unknown>,
  concurrent: number,
  calls: number,
  database: string | undefined,
): Promise<Figures> {
  const rounds = Math.ceil(calls / concurrent);
  const run = async (count: number) => {
    for (let r = 0; r < count; r++) {
      await Promise.all(Array.from({ length: concurrent }, (_, i) => call(r * concurrent + i)));
    }
  };
  await run(Math.max(1, Math.floor(rounds / 10)));
  const stop = cpuMeter(process.pid, database);
  const started = performance.now();
  await run(rounds);
  const seconds = (performance.now() - started) / 1000;
  const { serverMs, databaseMs } = stop();
  const made = rounds * concurrent;
  const perCall = (ms: number) => Math.round((ms * 1000 * 10) / made) / 10;
  return {
    nodeUsPerCall: perCall(serverMs),
    databaseUsPerCall: database === undefined ? null : perCall(databaseMs),
    callsPerSecond: Math.round(made / seconds),
  };
}

interface Subject {
  headers: Record<string, string>;
  reviewId: string;
}

interface StatementFigures {
  statement: string;
  batched: Figures;
  alone: Figures;
}

async function measureDatabase(kind: DatabaseKind, options: Options, workDir: string) {
  const target = await createBenchDatabase(kind, workDir);
  const handle = await openDatabase(target.target);
  try {
    await migrateToLatest(handle.db);
    const users = await seedUsers(handle.db, 50);
    const deps = { db: handle.db, clock: systemClock, jwtKeys: jwtKeys('b'.repeat(48), 'http://127.0.0.1') };
    const service = new ReviewService({
      db: handle.db,
      clock: systemClock,
      publicUrl: 'http://127.0.0.1',
      githubServerUrl: 'https://github.com',
      readPullRequest: async () => {
        throw new Error('test-mode reviews do not read GitHub');
      },
    });
    // Per user: the request's headers and its review.
    const subjects: Subject[] = [];
    for (const user of users) {
      const headers = { 'x-api-key': user.token };
      const principal = await authenticate(deps, headers, 'api');
      let reviewId = '';
      await service.create(
        principal,
        { pull_request_url: 'https://github.com/acme/shop/pull/2' },
        async (_trx, review) => {
          reviewId = review.id;
        },
      );
      subjects.push({ headers, reviewId });
    }
    const lookups = countingLookups(handle.db);
    const withRead = countingLookups(handle.db, undefined, REVIEW_READ_ALONG);
    const subject = (i: number) => subjects[i % subjects.length] as Subject;
    const authenticateOne = (i: number) => authenticateCounted(deps, lookups, subject(i).headers, 'api');
    const authenticateAndReadOne = async (i: number) => {
      const { along } = await authenticateCounted(deps, withRead, subject(i).headers, 'api', subject(i).reviewId);
      if (along === undefined) throw new Error('the review read along found nothing');
    };

    const statements: StatementFigures[] = [];
    for (const [statement, call] of [
      ['authenticate + count', authenticateOne],
      ['  + review read along', authenticateAndReadOne],
    ] as const) {
      statements.push({
        statement,
        batched: await measure(call, options.batch, options.calls, target.name),
        alone: await measure(call, 1, Math.ceil(options.calls / 4), target.name),
      });
    }
    return { database: kind, statements };
  } finally {
    await handle.close();
    await target.drop();
  }
}

function show(figures: Figures): string {
  const database = figures.databaseUsPerCall === null ? '' : ` + PostgreSQL ${figures.databaseUsPerCall} us`;
  return `${figures.nodeUsPerCall} us Node${database} CPU a call, ${figures.callsPerSecond.toLocaleString('en')} calls/s`;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!options.json) console.log(`hot statements: ${machineLoad()}`);
  const workDir = mkdtempSync(join(tmpdir(), 'redline-bench-statements-'));
  const results = [];
  try {
    for (const kind of options.databases) {
      const result = await measureDatabase(kind, options, workDir);
      results.push(result);
      if (options.json) continue;
      console.log(`\n  ${kind}: ${options.batch} concurrent calls sharing a statement, against one call at a time`);
      for (const { statement, batched, alone } of result.statements) {
        const saving = Math.round((10 * alone.nodeUsPerCall) / Math.max(0.1, batched.nodeUsPerCall)) / 10;
        console.log(`    ${statement.padEnd(21)} batched ${show(batched)}`);
        console.log(`    ${''.padEnd(21)} alone   ${show(alone)} (${saving}x the Node CPU)`);
      }
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  if (options.json) console.log(JSON.stringify({ machine: machineLoad(), options, results }, null, 2));
  else console.log(`\n  load average at the end: ${machineLoad()}`);
}

await main();
