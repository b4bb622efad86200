import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { issueSignInLink } from '../../src/auth/dashboard-sessions.js';
import { freePort } from '../helpers/private-postgres.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** The real server on a free port of 127.0.0.1, serving a dashboard built for this run. */
export interface DashboardServer {
  t: TestApp;
  base: string;
  /** A one-time sign-in link for the user, as `redline dashboard-link` prints it. */
  signInLink(userId: string): Promise<string>;
  close(): Promise<void>;
}

export async function startDashboardServer(env: Record<string, string> = {}): Promise<DashboardServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'redline-dashboard-'));
  // @ts-expect-error: a JavaScript build script without types
  const { buildDashboard } = await import('../../scripts/build-dashboard.mjs');
  await buildDashboard(dir);
  // PUBLIC_URL is the address the browser uses: links and redirects point back to this server.
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await createTestApp({ env: { PUBLIC_URL: base, ...env }, dashboardDir: dir });
  await t.app.listen({ port, host: '127.0.0.1' });
  return {
    t,
    base,
    async signInLink(userId) {
      return `${base}/app/#sign-in=${await issueSignInLink(t.database.db, userId, t.clock.now())}`;
    },
    async close() {
      await t.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
