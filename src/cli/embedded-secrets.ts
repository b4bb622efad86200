import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../config/config.js';
import type { AppSecrets } from '../http/build-app.js';

const stored = z.object({ jwt_secret: z.string().min(32), encryption_key: z.string() });

/**
 * Decisions §2/§9: in embedded mode a missing JWT_SECRET or ENCRYPTION_KEY is generated once and
 * kept (mode 0600) in the data directory, so a laptop install needs no set-up and keeps its
 * sessions and sealed GitHub tokens across restarts. With PostgreSQL both must be configured.
 */
export async function resolveSecrets(config: Config): Promise<AppSecrets> {
  if (config.jwtSecret !== undefined && config.encryptionKey !== undefined) {
    return { jwtSecret: config.jwtSecret, encryptionKey: config.encryptionKey };
  }
  if (config.databaseUrl !== undefined) {
    throw new Error('JWT_SECRET and ENCRYPTION_KEY are required when DATABASE_URL is set');
  }
  const file = path.join(path.resolve(config.dataDir), 'secrets.json');
  let saved: z.infer<typeof stored>;
  try {
    saved = stored.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new Error(`${file} is unreadable or damaged; restore it or remove it to start afresh`, { cause: error });
    }
    saved = { jwt_secret: randomBytes(48).toString('base64url'), encryption_key: randomBytes(32).toString('base64') };
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(saved, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  }
  return {
    jwtSecret: config.jwtSecret ?? saved.jwt_secret,
    encryptionKey: config.encryptionKey ?? Buffer.from(saved.encryption_key, 'base64'),
  };
}
