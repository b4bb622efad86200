import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { type Config, ConfigError } from './config.js';

/*
 * The GitHub App's private key (decisions §9: PRIVATE_KEY or PRIVATE_KEY_PATH), read and checked
 * once when the process is composed, so a bad key stops the start with a message naming its
 * variable instead of failing the first review.
 */

/**
 * An RSA private key in PEM: PKCS#1 ("BEGIN RSA PRIVATE KEY", as GitHub hands it out) or PKCS#8.
 * Escaped newlines ("\n" written as two characters, common in .env files; Probot accepts them
 * too) are accepted. Throws a ConfigError naming `variable`.
 */
export function parseAppPrivateKey(pem: string, variable: string): KeyObject {
  const text = pem.includes('\\n') && !pem.includes('\n') ? pem.replace(/\\n/g, '\n') : pem;
  let key: KeyObject;
  try {
    if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(text)) throw new Error('no PEM private key block');
    key = createPrivateKey({ key: text, format: 'pem' });
  } catch {
    throw new ConfigError([`${variable} must be a PEM RSA private key (PKCS#1 or PKCS#8)`]);
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new ConfigError([`${variable} must be an RSA private key (got ${key.asymmetricKeyType ?? 'another kind'})`]);
  }
  return key;
}

/**
 * The app's credentials from the configuration, or undefined when no GitHub App is configured
 * (the configuration already insists that APP_ID and a key come together). PRIVATE_KEY_PATH is
 * read here, once, at start: call this from the process's composition, not per request.
 */
export function readGitHubAppCredentials(
  github: Pick<Config['github'], 'appId' | 'privateKey' | 'privateKeyPath'>,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): { appId: number; privateKey: KeyObject } | undefined {
  if (github.appId === undefined) return undefined;
  if (github.privateKey !== undefined) {
    return { appId: github.appId, privateKey: parseAppPrivateKey(github.privateKey, 'PRIVATE_KEY') };
  }
  if (github.privateKeyPath === undefined) {
    throw new ConfigError(['PRIVATE_KEY (or PRIVATE_KEY_PATH) is required when APP_ID is set']);
  }
  let pem: string;
  try {
    pem = readFile(github.privateKeyPath);
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : String(error);
    throw new ConfigError([`PRIVATE_KEY_PATH cannot be read (${github.privateKeyPath}: ${reason})`]);
  }
  return { appId: github.appId, privateKey: parseAppPrivateKey(pem, `PRIVATE_KEY_PATH (${github.privateKeyPath})`) };
}
