/**
 * bench/webhook-delivery: how fast the outbox reaches a subscriber, next to the bare transport.
 *
 *   npm run bench:webhook-delivery [-- --deliveries N] [-- --paced N] [-- --concurrency N] [-- --json]
 *
 * One process holds the database (embedded PGlite in a temporary directory, or PostgreSQL when
 * DATABASE_URL is set), the delivery loops of `redline serve` (buildWebhookLoops: outbox
 * dispatcher + delivery loops, address guard, signing, attempt log) and a local HTTPS receiver.
 *
 * 1. Throughput: N events (default 10,000) are written to the outbox at once; deliveries per
 *    second from the first write to the last receipt; RSS and heap before and after.
 * 2. Latency: events written one at a time, 20 per second, each timed from its outbox write
 *    (what a review's state change does) to its arrival at the receiver: p50, p90, p99.
 * Baseline in the same run: the same bodies POSTed with sendWebhook alone (same receiver, same
 * concurrency, no database): the transport's ceiling. A measurement, not a test: exit 0.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLocalUser } from '../src/auth/accounts.js';
import { systemClock } from '../src/common/clock.js';
import { newId } from '../src/common/ids.js';
import { SecretBox } from '../src/common/secret-box.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { buildWebhookLoops } from '../src/webhooks/build-webhook-loops.js';
import { makeDeliveryHandler } from '../src/webhooks/deliver-webhook.js';
import { sendWebhook } from '../src/webhooks/send-webhook.js';
import { createWebhook } from '../src/webhooks/webhooks.js';
import { startHttpsReceiver } from '../test/helpers/https-receiver.js';

interface Options {
  deliveries: number;
  paced: number;
  concurrency: number;
  json: boolean;
}

function parseArgs(argv: string[]): Options {
  const options: Options = { deliveries: 10_000, paced: 200, concurrency: 8, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = Number(argv[i + 1]);
    if (arg === '--json') options.json = true;
    else if (arg === '--deliveries' && Number.isInteger(value) && value > 0) options.deliveries = value;
    else if (arg === '--paced' && Number.isInteger(value) && value > 0) options.paced = value;
    else if (arg === '--concurrency' && Number.isInteger(value) && value > 0) options.concurrency = value;
    else continue;
    i += 1;
  }
  return options;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0);
const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const memory = () => {
  const m = process.memoryUsage();
  return { rss_mib: mib(m.rss), heap_mib: mib(m.heapUsed) };
};

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const dataDir = mkdtempSync(join(tmpdir(), 'redline-bench-hooks-'));
  const database = await openDatabase(
    process.env.DATABASE_URL ? { url: process.env.DATABASE_URL } : { dataDir: join(dataDir, 'db') },
  );
  await migrateToLatest(database.db);
  const arrivals = new Map<string, number>();
  const receiver = await startHttpsReceiver((request) => {
    arrivals.set(JSON.parse(request.body).id as string, performance.now());
    return { status: 204 };
  });
  const box = new SecretBox(randomBytes(32));
  const user = await createLocalUser(database.db, `bench-${randomBytes(3).toString('hex')}`);
  await createWebhook(
    database.db,
    box,
    { userId: user.id, mode: 'live' },
    { url: `${receiver.url}/hook`, events: ['review.completed'], secret: randomBytes(24).toString('base64url') },
    new Date(Date.now() - 1000),
  );

  const writeEvents = async (count: number) => {
    const ids: string[] = [];
    for (let offset = 0; offset < count; offset += 500) {
      const rows = Array.from({ length: Math.min(500, count - offset) }, () => {
        const id = newId('evt');
        ids.push(id);
        return {
          id,
          type: 'review.completed',
          mode: 'live' as const,
          user_id: user.id,
          data: JSON.stringify({ review_id: newId('rev'), status: 'completed', summary: { issues_found: 0 } }),
          created_at: new Date(),
        };
      });
      await database.db.insertInto('events').values(rows).execute();
    }
    return ids;
  };
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((r) => setTimeout(r, 5));
  };

  const retryDelaysMs = [0, 60_000, 300_000, 1_800_000, 7_200_000];
  const loops = buildWebhookLoops({
    db: database.db,
    clock: systemClock,
    deliver: makeDeliveryHandler({
      db: database.db,
      clock: systemClock,
      box,
      retryDelaysMs,
      send: (request) => sendWebhook(request, { allowPrivate: true, ca: receiver.ca }),
    }),
    firstDelayMs: retryDelaysMs[0] ?? 0,
    concurrency: options.concurrency,
    workerId: 'bench',
    leaseMs: 60_000,
  });
  for (const loop of loops) await loop.start();

  // 1. Throughput through the outbox.
  const before = memory();
  const started = performance.now();
  const ids = await writeEvents(options.deliveries);
  await until(() => ids.every((id) => arrivals.has(id)));
  const elapsed = (performance.now() - started) / 1000;
  const after = memory();

  // 2. Latency, one event every 50 ms.
  const latencies: number[] = [];
  for (let i = 0; i < options.paced; i += 1) {
    const written = performance.now();
    const [id] = await writeEvents(1);
    if (id === undefined) continue;
    void until(() => arrivals.has(id)).then(() => latencies.push((arrivals.get(id) ?? written) - written));
    await new Promise((r) => setTimeout(r, 50));
  }
  await until(() => latencies.length === options.paced);
  for (const loop of loops) await loop.stop();

  // Baseline: the transport alone, same bodies, same concurrency.
  const body = JSON.stringify({ id: 'evt_baseline', type: 'review.completed', created_at: new Date().toISOString() });
  const baselineStart = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next < options.deliveries) {
        next += 1;
        await sendWebhook(
          { url: `${receiver.url}/hook`, headers: { 'content-type': 'application/json' }, body },
          { allowPrivate: true, ca: receiver.ca },
        );
      }
    }),
  );
  const baselineElapsed = (performance.now() - baselineStart) / 1000;

  await receiver.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });

  const sorted = latencies.sort((a, b) => a - b);
  const result = {
    database: process.env.DATABASE_URL ? 'postgresql' : 'pglite',
    deliveries: options.deliveries,
    concurrency: options.concurrency,
    deliveries_per_second: Math.round(options.deliveries / elapsed),
    baseline_posts_per_second: Math.round(options.deliveries / baselineElapsed),
    latency_ms: {
      samples: sorted.length,
      p50: Math.round(percentile(sorted, 50)),
      p90: Math.round(percentile(sorted, 90)),
      p99: Math.round(percentile(sorted, 99)),
    },
    memory_before: before,
    memory_after: after,
  };
  if (options.json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  console.log(`webhook delivery (${result.database}, ${result.concurrency} delivery loops, receiver in-process)`);
  console.log(`  ${result.deliveries} deliveries: ${result.deliveries_per_second}/s through the outbox`);
  console.log(`  baseline, sendWebhook alone: ${result.baseline_posts_per_second}/s`);
  console.log(
    `  outbox write -> receipt (${sorted.length} events at 20/s): p50 ${result.latency_ms.p50} ms, p90 ${result.latency_ms.p90} ms, p99 ${result.latency_ms.p99} ms`,
  );
  console.log(
    `  memory: before rss ${before.rss_mib} MiB heap ${before.heap_mib} MiB; after rss ${after.rss_mib} MiB heap ${after.heap_mib} MiB`,
  );
}

await main();
