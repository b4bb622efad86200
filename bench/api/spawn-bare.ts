import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { ROOT } from './parse-args.js';
import { type SpawnedServer, spawnServer } from './spawn-server.js';

/** bench/api/bare-server.ts in its own process, answering `bodies`; with a database URL, its floor route too. */
export async function spawnBare(
  workDir: string,
  bodies: { get?: unknown; post?: unknown },
  name: string,
  databaseUrl?: string,
): Promise<SpawnedServer & { url: string }> {
  const bodiesFile = join(workDir, `${name}-bodies.json`);
  writeFileSync(bodiesFile, JSON.stringify(bodies));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = await spawnServer({
    args: [join(ROOT, 'build-bench/bench/api/bare-server.js')],
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      BARE_BODIES: bodiesFile,
      ...(databaseUrl ? { BARE_DATABASE_URL: databaseUrl } : {}),
    },
    readyUrl: `${url}/readyz`,
    logFile: join(workDir, `${name}.log`),
  });
  return Object.assign(server, { url });
}
