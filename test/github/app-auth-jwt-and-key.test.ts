import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.js';
import { readGitHubAppCredentials } from '../../src/config/github-app-key.js';
import { signAppJwt } from '../../src/github/app-auth.js';
import { APP_ID, keys, pkcs1, rsaKeyPair, useFakeGitHubApp } from './app-auth-harness.js';

useFakeGitHubApp();

describe('the app JWT', () => {
  it('is RS256, issued by the app id a minute ago, and expires in nine minutes', async () => {
    const now = new Date('2030-01-02T03:04:05.678Z');
    const jwt = await signAppJwt({ appId: APP_ID, privateKey: keys.privateKey }, now);
    expect(decodeProtectedHeader(jwt)).toEqual({ alg: 'RS256', typ: 'JWT' });
    const { payload } = await jwtVerify(jwt, keys.publicKey, { algorithms: ['RS256'], currentDate: now });
    const seconds = Math.floor(now.getTime() / 1000);
    expect(payload).toEqual({ iss: String(APP_ID), iat: seconds - 60, exp: seconds + 540 });
  });

  it('does not verify with another key', async () => {
    const jwt = await signAppJwt({ appId: APP_ID, privateKey: keys.privateKey }, new Date());
    await expect(jwtVerify(jwt, rsaKeyPair().publicKey)).rejects.toThrow();
  });
});

describe('the private key (PRIVATE_KEY or PRIVATE_KEY_PATH)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'redline-app-key-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const problemsOf = (fn: () => unknown): string[] => {
    try {
      fn();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).problems;
    }
    throw new Error('expected a ConfigError');
  };

  it('is not needed when no app is configured', () => {
    expect(readGitHubAppCredentials(loadConfig({}).github)).toBeUndefined();
  });

  it('reads PKCS#1 and PKCS#8 PEM from PRIVATE_KEY, escaped newlines included', async () => {
    const pkcs8 = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    for (const pem of [pkcs1(keys.privateKey), pkcs8, pkcs1(keys.privateKey).replace(/\n/g, '\\n')]) {
      const app = readGitHubAppCredentials({ appId: APP_ID, privateKey: pem, privateKeyPath: undefined });
      expect(app?.appId).toBe(APP_ID);
      const jwt = await signAppJwt(app as NonNullable<typeof app>, new Date());
      await expect(jwtVerify(jwt, keys.publicKey)).resolves.toBeDefined();
    }
  });

  it('reads PRIVATE_KEY_PATH once, through the configuration', async () => {
    const path = join(dir, 'app.pem');
    await writeFile(path, pkcs1(keys.privateKey));
    const config = loadConfig({ APP_ID: String(APP_ID), PRIVATE_KEY_PATH: path, WEBHOOK_SECRET: 'w' });
    let reads = 0;
    const app = readGitHubAppCredentials(config.github, (p) => {
      reads += 1;
      return pkcs1(keys.privateKey) + (p === path ? '' : 'wrong path');
    });
    expect(reads).toBe(1);
    expect(app?.privateKey.asymmetricKeyType).toBe('rsa');
    expect(readGitHubAppCredentials(config.github)?.appId).toBe(APP_ID);
  });

  it('names PRIVATE_KEY_PATH when the file cannot be read or is not a PEM RSA key', async () => {
    const missing = join(dir, 'missing.pem');
    expect(
      problemsOf(() => readGitHubAppCredentials({ appId: 1, privateKey: undefined, privateKeyPath: missing })),
    ).toEqual([expect.stringMatching(/^PRIVATE_KEY_PATH cannot be read .*missing\.pem.*ENOENT/)]);
    expect(
      problemsOf(() => readGitHubAppCredentials({ appId: 1, privateKey: undefined, privateKeyPath: dir })),
    ).toEqual([expect.stringMatching(/^PRIVATE_KEY_PATH cannot be read/)]);

    const notPem = join(dir, 'not.pem');
    await writeFile(notPem, 'hello');
    expect(
      problemsOf(() => readGitHubAppCredentials({ appId: 1, privateKey: undefined, privateKeyPath: notPem })),
    ).toEqual([expect.stringMatching(/^PRIVATE_KEY_PATH .*must be a PEM RSA private key/)]);

    const ec = join(dir, 'ec.pem');
    const ecKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    await writeFile(ec, ecKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    expect(problemsOf(() => readGitHubAppCredentials({ appId: 1, privateKey: undefined, privateKeyPath: ec }))).toEqual(
      [expect.stringMatching(/^PRIVATE_KEY_PATH .*must be an RSA private key \(got ec\)/)],
    );
  });

  it('names PRIVATE_KEY when its PEM is broken', () => {
    const armour = (edge: string) => `-----${edge} RSA PRIVATE ${'KEY'}-----`; // no key-looking literal
    const broken = `${armour('BEGIN')}\nnot base64 at all\n${armour('END')}\n`;
    expect(
      problemsOf(() => readGitHubAppCredentials({ appId: 1, privateKey: broken, privateKeyPath: undefined })),
    ).toEqual([expect.stringMatching(/^PRIVATE_KEY must be a PEM RSA private key/)]);
  });
});
