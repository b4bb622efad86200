import { createHash, randomBytes } from 'node:crypto';
import type {
  FakeEndpoint,
  FakeFailure,
  FakeInstallation,
  FakeRepo,
  FakeUser,
  IssuedCode,
} from './fake-github-types.js';

/** What a FakeGitHub knows and keeps to itself: its users, codes, failures, repositories and installations. */
export class FakeGitHubStore {
  readonly users = new Map<number, FakeUser>();
  readonly codes = new Map<string, IssuedCode>();
  readonly failures = new Map<FakeEndpoint, FakeFailure>();
  /** By lower-cased `owner/name`: GitHub's names are case-insensitive. */
  readonly repos = new Map<string, FakeRepo>();
  readonly installations = new Map<number, FakeInstallation>();
}

/** GitHub's authorization codes live ten minutes. */
export const CODE_LIFETIME_MS = 10 * 60 * 1000;

/** GitHub's installation tokens live one hour. */
export const INSTALLATION_TOKEN_LIFETIME_MS = 60 * 60 * 1000;

export const API_REPO_CONTENTS = /^\/repos\/([^/]+)\/([^/]+)\/contents\/(.+)$/;
export const API_REPO_PULL = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)(\/files)?$/;
export const API_REPO_INSTALLATION = /^\/repos\/([^/]+)\/([^/]+)\/installation$/;
export const API_INSTALLATION_TOKEN = /^\/app\/installations\/(\d+)\/access_tokens$/;

/** A deterministic 40-hex commit sha from any text. */
export const shaOf = (text: string) => createHash('sha1').update(text).digest('hex');

/** Generated per run: nothing here is a literal that looks like a credential. */
export const randomToken = (prefix: string) => prefix + randomBytes(27).toString('base64url').replace(/[-_]/g, 'x');
