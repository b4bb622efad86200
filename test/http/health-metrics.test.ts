import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { buildApp } from '../../src/http/build-app.js';
import { testSecrets } from '../helpers/test-app.js';
import { testClock } from '../helpers/test-clock.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

// Decisions §3: /healthz answers while the process runs, /readyz only while the database answers,
// /metrics serves Prometheus text labelled by route pattern (never the raw URL).

const NOW = '2026-11-02T10:00:00.000Z';
const config = loadConfig({ PUBLIC_URL: 'http://redline.test' });

async function appOver(database: DatabaseHandle): Promise<FastifyInstance> {
  const app = await buildApp({ config, database, secrets: testSecrets(), clock: testClock(NOW) });
  await app.ready();
  return app;
}

let database: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await appOver(database);
});

afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('health', () => {
  it('/healthz answers 200 { status: "ok" }', async () => {
    const res = await app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/^req_/);
  });

  it('/readyz answers 200 while the database answers', async () => {
    const res = await app.inject({ url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready' });
  });

  const unavailable = (requestId: unknown) => ({
    error: { type: 'api_error', message: 'Database is not answering', code: 'service_unavailable', status: 503 },
    meta: { request_id: requestId, timestamp: NOW },
  });

  it('/readyz answers 503 service_unavailable when the ping fails, while /healthz stays 200', async () => {
    const silent = await appOver({ ...database, ping: async () => false });
    try {
      const res = await silent.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual(unavailable(res.headers['x-request-id']));
      expect((await silent.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await silent.close();
    }
  });

  it('/readyz answers 503 once the database is closed', async () => {
    // A database of its own, closed under a running app: the real ping, not a stub.
    const doomed = await createTestDatabase();
    const doomedApp = await appOver(doomed);
    try {
      expect((await doomedApp.inject({ url: '/readyz' })).statusCode).toBe(200);
      await doomed.close();
      const res = await doomedApp.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual(unavailable(res.headers['x-request-id']));
    } finally {
      await doomedApp.close();
    }
  });
});

describe('metrics', () => {
  it('serves Prometheus text with request counts by route pattern and a latency histogram', async () => {
    expect((await app.inject({ url: '/v1/organizations/org_x' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/v1/organizations/org_y' })).statusCode).toBe(401);
    expect((await app.inject({ url: '/v1/no/such/route/abc123' })).statusCode).toBe(404);

    const res = await app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const lines = res.body.split('\n');

    // Both ids land on one series: the pattern, not the URL.
    expect(lines).toContain('redline_http_requests_total{method="GET",route="/v1/organizations/:id",status="401"} 2');
    expect(lines).toContain('# TYPE redline_http_requests_total counter');
    expect(res.body).not.toContain('org_x');
    // Unmatched URLs share one label, so a scanner cannot grow the label space.
    expect(lines).toContain('redline_http_requests_total{method="GET",route="(unmatched)",status="404"} 1');
    expect(res.body).not.toContain('abc123');

    expect(lines).toContain('# TYPE redline_http_request_duration_seconds histogram');
    const series = 'method="GET",route="/v1/organizations/:id",status="401"';
    for (const le of ['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf']) {
      expect(
        lines.some((l) => l.startsWith(`redline_http_request_duration_seconds_bucket{le="${le}",${series}} `)),
      ).toBe(true);
    }
    expect(lines).toContain(`redline_http_request_duration_seconds_bucket{le="+Inf",${series}} 2`);
    expect(lines).toContain(`redline_http_request_duration_seconds_count{${series}} 2`);
    // The default process metrics are there too.
    expect(lines.some((l) => l.startsWith('process_cpu_user_seconds_total'))).toBe(true);
  });

  it('keeps each app its own registry', async () => {
    // Two apps in one process (as in tests) must not share or clash on counters.
    const other = await appOver(database);
    try {
      const res = await other.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('route="/v1/organizations/:id"');
    } finally {
      await other.close();
    }
  });
});
