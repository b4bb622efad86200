import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { buildApp } from '../../src/http/build-app.js';
import { testSecrets } from '../helpers/test-app.js';
import { testClock } from '../helpers/test-clock.js';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database.js';

describe('request log', () => {
  const lines: Array<Record<string, unknown>> = [];
  let database: TestDatabase;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    database = await createTestDatabase();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    app = await buildApp({
      config: loadConfig({ PUBLIC_URL: 'http://redline.test' }),
      database,
      secrets: testSecrets(),
      clock: testClock(),
      logger: pino({ level: 'info' }, sink),
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('writes one line per answered request, with its id, method, URL, status and time', async () => {
    lines.length = 0;
    const ok = await app.inject({ url: '/healthz' });
    const missing = await app.inject({ method: 'POST', url: '/v1/nothing?x=1', remoteAddress: '192.0.2.7' });
    expect([ok.statusCode, missing.statusCode]).toEqual([200, 404]);
    const requestLines = lines.filter((line) => line.reqId !== undefined);
    const completed = (res: typeof ok, req: object) => ({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      reqId: res.headers['x-request-id'],
      req: { ...req, host: 'localhost:80' },
      res: { statusCode: res.statusCode },
      responseTime: expect.any(Number),
      msg: 'request completed',
    });
    expect(requestLines).toEqual([
      completed(ok, { method: 'GET', url: '/healthz', remoteAddress: '127.0.0.1' }),
      completed(missing, { method: 'POST', url: '/v1/nothing?x=1', remoteAddress: '192.0.2.7' }),
    ]);
  });
});
