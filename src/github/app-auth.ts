import type { KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Clock } from '../common/clock.js';
import { AppError, upstreamError } from '../common/errors.js';
import { createOctokit, httpStatusOf } from './octokit.js';

/**
 * GitHub App authentication (decisions §9: APP_ID, PRIVATE_KEY or PRIVATE_KEY_PATH): the app's
 * JWT, the installation that covers a repository, and short-lived installation access tokens.
 * Everything here is re-derivable from the private key, so it lives in memory only: nothing is
 * stored, and a restart simply asks GitHub again. The key itself is read from the configuration
 * by config/github-app-key.ts, once, when the process is composed.
 */

export interface GitHubAppCredentials {
  appId: number;
  privateKey: KeyObject;
}

/** GitHub refuses app JWTs that live longer than 10 minutes; 9 leaves room for clock drift. */
export const APP_JWT_LIFETIME_S = 9 * 60;
/** Backdated a minute, as GitHub recommends, in case our clock runs ahead of GitHub's. */
export const APP_JWT_BACKDATE_S = 60;
/** An installation token is used until this long before GitHub says it expires (they live one hour). */
export const TOKEN_REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** How long "the app is not installed on this repository" (and "installed as N") is believed. */
export const INSTALLATION_LOOKUP_TTL_MS = 60 * 1000;

/** The app's JWT: RS256, iss = the app id, issued a minute ago, expiring in nine minutes. */
export async function signAppJwt(app: GitHubAppCredentials, now: Date): Promise<string> {
  const seconds = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT' })
    .setIssuer(String(app.appId))
    .setIssuedAt(seconds - APP_JWT_BACKDATE_S)
    .setExpirationTime(seconds + APP_JWT_LIFETIME_S)
    .sign(app.privateKey);
}

export interface GitHubAppAuth {
  /**
   * An installation access token that can read `owner/repo`, or undefined when the app is not
   * installed on it. Throws an AppError 502 (upstream_error) when GitHub cannot be asked or
   * refuses the app itself (a wrong key or app id): callers retry, they never fall back silently.
   */
  installationToken(owner: string, repo: string): Promise<string | undefined>;
  /**
   * GitHub refused a token for `owner/repo` (401: revoked, or the app was reinstalled): forget
   * the repository's installation and that installation's token, so the next ask gets fresh ones
   * instead of the cached token until its expiry.
   */
  forget(owner: string, repo: string): void;
  /**
   * The login the app comments as (`<slug>[bot]`), asked of GitHub once per process: how our
   * own earlier comments are told from other bots'. Throws an AppError 502 when GitHub cannot say.
   */
  botLogin(): Promise<string>;
}

export interface GitHubAppAuthDeps {
  app: GitHubAppCredentials;
  apiUrl: string;
  fetch: typeof fetch;
  clock: Clock;
  /** Retry and rate-limit settings of the Octokits made here (createOctokit's); defaults when absent. */
  octokitOptions?: Omit<Parameters<typeof createOctokit>[0], 'apiUrl' | 'token' | 'fetch'> | undefined;
}

interface CachedToken {
  token: string;
  /** When we stop using it: GitHub's expires_at less the refresh margin. */
  useUntil: number;
}

interface CachedLookup {
  installationId: number | undefined;
  until: number;
}

/**
 * Installation tokens with an in-memory cache: per installation until five minutes before they
 * expire, and the repository → installation answer (installed or not) for a minute, so that a
 * newly installed app is noticed soon and an uninstalled one stops being asked for quickly.
 * Concurrent asks for the same repository or installation share one request to GitHub.
 */
export function makeGitHubAppAuth(deps: GitHubAppAuthDeps): GitHubAppAuth {
  const lookups = new Map<string, CachedLookup>();
  const tokens = new Map<number, CachedToken>();
  const pendingLookups = new Map<string, Promise<number | undefined>>();
  const pendingTokens = new Map<number, Promise<string>>();
  const now = () => deps.clock.now().getTime();

  const appOctokit = async () =>
    createOctokit({
      ...deps.octokitOptions,
      apiUrl: deps.apiUrl,
      token: await signAppJwt(deps.app, deps.clock.now()),
      fetch: deps.fetch,
    });

  const failure = (what: string, error: unknown): AppError => {
    if (error instanceof AppError) return error;
    const status = httpStatusOf(error);
    return upstreamError(
      `GitHub App authentication failed (${what}${status !== undefined ? `: HTTP ${status}` : ''})`,
      error,
    );
  };

  const findInstallation = async (owner: string, repo: string): Promise<number | undefined> => {
    try {
      const octokit = await appOctokit();
      const { data } = await octokit.apps.getRepoInstallation({ owner, repo });
      return data.id;
    } catch (error) {
      // 404: the app is not installed on the repository (or it does not exist; the same to us).
      if (httpStatusOf(error) === 404) return undefined;
      throw failure('installation lookup', error);
    }
  };

  const createToken = async (installationId: number): Promise<string> => {
    try {
      const octokit = await appOctokit();
      const { data } = await octokit.apps.createInstallationAccessToken({ installation_id: installationId });
      const expiresAt = Date.parse(data.expires_at);
      // A token whose expiry cannot be read is used once, not cached.
      if (Number.isFinite(expiresAt)) {
        tokens.set(installationId, { token: data.token, useUntil: expiresAt - TOKEN_REFRESH_MARGIN_MS });
      }
      return data.token;
    } catch (error) {
      throw failure('installation token', error);
    }
  };

  let slug: Promise<string> | undefined;
  const readSlug = async (): Promise<string> => {
    try {
      const { data } = await (await appOctokit()).apps.getAuthenticated();
      if (!data?.slug) throw upstreamError("GitHub did not say the app's slug");
      return data.slug;
    } catch (error) {
      throw failure('app lookup', error);
    }
  };

  const keyOf = (owner: string, repo: string) => `${owner}/${repo}`.toLowerCase(); // GitHub's names are case-insensitive

  const installationOf = async (owner: string, repo: string): Promise<number | undefined> => {
    const key = keyOf(owner, repo);
    const cached = lookups.get(key);
    if (cached !== undefined && cached.until > now()) return cached.installationId;
    let pending = pendingLookups.get(key);
    if (pending === undefined) {
      pending = findInstallation(owner, repo)
        .then((installationId) => {
          lookups.set(key, { installationId, until: now() + INSTALLATION_LOOKUP_TTL_MS });
          return installationId;
        })
        .finally(() => pendingLookups.delete(key));
      pendingLookups.set(key, pending);
    }
    return pending;
  };

  return {
    async installationToken(owner, repo) {
      const installationId = await installationOf(owner, repo);
      if (installationId === undefined) return undefined;
      const cached = tokens.get(installationId);
      if (cached !== undefined && cached.useUntil > now()) return cached.token;
      let pending = pendingTokens.get(installationId);
      if (pending === undefined) {
        pending = createToken(installationId).finally(() => pendingTokens.delete(installationId));
        pendingTokens.set(installationId, pending);
      }
      return pending;
    },
    async botLogin() {
      // One ask per process; a failed ask is forgotten so the next call tries again.
      slug ??= readSlug().catch((error: unknown) => {
        slug = undefined;
        throw error;
      });
      return `${await slug}[bot]`;
    },
    forget(owner, repo) {
      const key = keyOf(owner, repo);
      const installationId = lookups.get(key)?.installationId;
      lookups.delete(key);
      if (installationId !== undefined) tokens.delete(installationId);
    },
  };
}

/** The app's token source, or null when no GitHub App is configured (no credentials). */
export function githubAppAuthOrNull(
  app: GitHubAppCredentials | undefined,
  deps: Omit<GitHubAppAuthDeps, 'app'>,
): GitHubAppAuth | null {
  return app === undefined ? null : makeGitHubAppAuth({ app, ...deps });
}
