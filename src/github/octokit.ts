import { createHash } from 'node:crypto';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { Octokit } from '@octokit/rest';
import Bottleneck from 'bottleneck';
import { upstreamError } from '../common/errors.js';

/** A hung GitHub must not hang a sign-in or a review: each call gets this long. */
export const GITHUB_REQUEST_TIMEOUT_MS = 10_000;

/**
 * How hard we try before a GitHub call fails. Production uses the defaults; tests shrink the
 * waits. They are given at construction: an Octokit's `.defaults({ throttle })` would be
 * replaced whole by the options of the `new`, so nothing here goes through defaults.
 */
export interface GitHubRetryOptions {
  /** Retries of a 5xx answer or a network failure (timeouts included). Default 2. */
  retries?: number;
  /** The n-th such retry waits n² × this. Default 500 ms (so 0.5 s, then 2 s). */
  retryAfterBaseMs?: number;
  /** Retries of a call GitHub rate-limited (primary or secondary limit). Default 2. */
  rateLimitRetries?: number;
  /**
   * The longest wait GitHub may ask for (retry-after, or until x-ratelimit-reset), in GitHub's
   * seconds. Beyond it the call fails at once with an upstream error, and the job that made it
   * is retried later. Default 60.
   */
  maxRateLimitWaitSeconds?: number;
  /** How long one of GitHub's seconds lasts here: 1000 ms; tests make it a millisecond or so. */
  rateLimitSecondMs?: number;
  /**
   * The pause between two writes (POST, PATCH, PUT, DELETE) under one token: GitHub asks
   * integrations to space content-creating requests to stay clear of secondary limits, and the
   * throttling plugin waits 1000 ms. Tests make it 0.
   */
  writeSpacingMs?: number;
}

export const GITHUB_RETRY_DEFAULTS: Required<GitHubRetryOptions> = {
  retries: 2,
  retryAfterBaseMs: 500,
  rateLimitRetries: 2,
  maxRateLimitWaitSeconds: 60,
  rateLimitSecondMs: 1000,
  writeSpacingMs: 1000,
};

/** Write limiters by spacing, shared like the plugin's own (one queue per token id within each). */
const writeGroups = new Map<number, Bottleneck.Group>();
function writeGroup(spacingMs: number): Bottleneck.Group {
  let group = writeGroups.get(spacingMs);
  if (group === undefined) {
    group = new Bottleneck.Group({ id: `redline-write-${spacingMs}`, maxConcurrent: 1, minTime: spacingMs });
    writeGroups.set(spacingMs, group);
  }
  return group;
}

/**
 * Octokit's default logger writes every failed call to the console, outside the service's
 * structured log, even for answers we handle (a 403 on memberships). Failures that matter reach
 * the client and the log as AppErrors instead.
 */
const quietLog = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** Every 4xx: only rate limits (403/429, the throttling plugin's) are worth another try. */
const NOT_RETRIED = Array.from({ length: 100 }, (_, i) => 400 + i);

interface FailedCall {
  status?: unknown;
  message?: unknown;
  response?: { headers?: Record<string, string | number | undefined> };
}

const headerOf = (error: FailedCall, name: string) => error.response?.headers?.[name];

const SECONDARY_LIMIT = /\bsecondary rate\b/i;

/** A 403/429 that is GitHub limiting our rate, not refusing access. */
function isRateLimited(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as FailedCall;
  if (e.status === 429) return true;
  if (e.status !== 403) return false;
  return (
    String(headerOf(e, 'x-ratelimit-remaining')) === '0' ||
    headerOf(e, 'retry-after') !== undefined ||
    (typeof e.message === 'string' && SECONDARY_LIMIT.test(e.message))
  );
}

/**
 * Innermost: GitHub documents a 403/429 with retry-after as a secondary limit, whatever the
 * message says; the throttling plugin recognises one by its message, so the message is made to say it.
 */
function markSecondaryLimits(octokit: Pick<Octokit, 'hook'>) {
  octokit.hook.wrap('request', async (request, options) => {
    try {
      return await request(options);
    } catch (error) {
      const e = error as FailedCall & Error;
      if (
        (e.status === 403 || e.status === 429) &&
        headerOf(e, 'retry-after') !== undefined &&
        !(typeof e.message === 'string' && SECONDARY_LIMIT.test(e.message))
      ) {
        e.message = `${e.message} (secondary rate limit)`;
      }
      throw error;
    }
  });
}

/**
 * Outermost: a rate limit still in force once the throttling plugin has given up is an upstream
 * failure (502, retried later), never the 403 that callers read as "not readable".
 */
function rateLimitsFailAsUpstream(octokit: Pick<Octokit, 'hook'>) {
  octokit.hook.wrap('request', async (request, options) => {
    try {
      return await request(options);
    } catch (error) {
      if (isRateLimited(error)) throw upstreamError('GitHub rate limit exceeded; try again later', error);
      throw error;
    }
  });
}

const ResilientOctokit = Octokit.plugin(markSecondaryLimits, throttling, retry, rateLimitsFailAsUpstream);

/**
 * The one way we make an Octokit: GITHUB_API_URL as base (Enterprise Server too), the injected
 * fetch (tests aim it at fakes) with a time limit per call, no console logging, GitHub's rate
 * limits honoured (waits as GitHub says, up to a cap), and 5xx answers and network failures retried
 * with backoff. Other 4xx answers are not retried.
 */
export function createOctokit(
  options: { apiUrl: string; token?: string | undefined; fetch: typeof fetch } & GitHubRetryOptions,
): Octokit {
  const settings = { ...GITHUB_RETRY_DEFAULTS, ...definedOnly(options) };
  const timedFetch: typeof fetch = (input, init) =>
    options.fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(GITHUB_REQUEST_TIMEOUT_MS) });
  const rateLimitHandler = (retryAfterSeconds: number, _options: unknown, _octokit: unknown, retryCount: number) =>
    retryCount < settings.rateLimitRetries && retryAfterSeconds <= settings.maxRateLimitWaitSeconds;
  return new ResilientOctokit({
    ...(options.token !== undefined ? { auth: options.token } : {}),
    baseUrl: options.apiUrl,
    log: quietLog,
    request: { fetch: timedFetch },
    throttle: {
      // Concurrency is limited per token (GitHub counts limits per token), not across the process.
      id: `${options.apiUrl} ${options.token === undefined ? 'anonymous' : createHash('sha256').update(options.token).digest('hex').slice(0, 16)}`,
      retryAfterBaseValue: settings.rateLimitSecondMs,
      fallbackSecondaryRateRetryAfter: 60,
      onRateLimit: rateLimitHandler,
      onSecondaryRateLimit: rateLimitHandler,
      // The plugin's default write group is GitHub's 1 s spacing; another spacing needs its own.
      ...(settings.writeSpacingMs !== GITHUB_RETRY_DEFAULTS.writeSpacingMs
        ? { write: writeGroup(settings.writeSpacingMs) }
        : {}),
    },
    retry: { retries: settings.retries, retryAfterBaseValue: settings.retryAfterBaseMs, doNotRetry: NOT_RETRIED },
  });
}

function definedOnly(options: GitHubRetryOptions): GitHubRetryOptions {
  return Object.fromEntries(
    (Object.keys(GITHUB_RETRY_DEFAULTS) as (keyof GitHubRetryOptions)[])
      .filter((k) => options[k] !== undefined)
      .map((k) => [k, options[k]]),
  );
}

export function httpStatusOf(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null && 'status' in error ? Number(error.status) : undefined;
}
