import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DASHBOARD_CSP } from '../../src/http/dashboard-routes.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** /app serves the built dashboard: a no-cache index, year-long hashed assets, a strict CSP. */
let dir: string;
let t: TestApp;
let unbuilt: TestApp;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'redline-dashboard-routes-'));
  await mkdir(path.join(dir, 'assets'));
  await writeFile(
    path.join(dir, 'index.html'),
    '<!doctype html><script type="module" src="/app/assets/app-ABC123.js"></script>',
  );
  await writeFile(path.join(dir, 'assets', 'app-ABC123.js'), 'console.log(1)');
  await writeFile(path.join(dir, 'assets', 'style-DEF456.css'), 'body{}');
  t = await createTestApp({ dashboardDir: dir });
  unbuilt = await createTestApp({ dashboardDir: path.join(dir, 'missing'), database: t.database });
});

afterAll(async () => {
  await unbuilt?.close();
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the dashboard routes', () => {
  it('serves index.html at /app and /app/ with no-cache and the strict policy', async () => {
    for (const url of ['/app', '/app/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('/app/assets/app-ABC123.js');
      expect(res.headers).toMatchObject({
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        'content-security-policy': DASHBOARD_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'x-frame-options': 'DENY',
      });
    }
    expect(DASHBOARD_CSP).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
  });

  it('serves the hashed assets for a year, with their types', async () => {
    const js = await t.app.inject({ method: 'GET', url: '/app/assets/app-ABC123.js' });
    expect(js.statusCode).toBe(200);
    expect(js.body).toBe('console.log(1)');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const css = await t.app.inject({ method: 'GET', url: '/app/assets/style-DEF456.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('answers 404 for an asset it does not have (no path outside the folder)', async () => {
    for (const url of [
      '/app/assets/app-OTHER.js',
      '/app/assets/..%2Findex.html',
      '/app/assets/%2E%2E%2F%2E%2E%2Fpackage.json',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
    }
  });

  it('sends / to the dashboard', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/app/');
  });

  it('says how to build it when it is not built', async () => {
    const res = await unbuilt.app.inject({ method: 'GET', url: '/app/' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error.message).toBe('The dashboard is not built: run `npm run build`');
  });
});
