import { z } from 'zod';
import { SEVERITIES, type Severity } from '../client/api-types.js';

/** The inputs of action.yml (decisions §8), in the order problems are reported. */
export const INPUT_NAMES = [
  'api-key',
  'api-url',
  'pull-request-url',
  'fail-on',
  'timeout-seconds',
  'inline-comments',
  'check-security',
  'check-performance',
  'team-id',
  'github-token',
] as const;

export type InputName = (typeof INPUT_NAMES)[number];

export const FAIL_ON = [...SEVERITIES, 'never'] as const;
export type FailOn = Severity | 'never';

/** At most a job's own limit on GitHub-hosted runners (6 hours). */
const MAX_TIMEOUT_SECONDS = 21_600;

export interface ActionInputs {
  apiKey: string;
  /** Without a trailing slash. */
  apiUrl: string;
  pullRequestUrl: string | undefined;
  failOn: FailOn;
  timeoutSeconds: number;
  inlineComments: boolean;
  checkSecurity: boolean;
  checkPerformance: boolean;
  teamId: string | undefined;
  /** Posts the review on the pull request when the App does not; undefined: annotations only. */
  githubToken: string | undefined;
}

/** Every bad input at once, one line each, so a workflow is fixed in one go. */
export class InputError extends Error {
  readonly problems: string[];

  constructor(problems: string[]) {
    super(`Invalid inputs:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    this.name = 'InputError';
    this.problems = problems;
  }
}

const shown = (value: string) => JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);

/**
 * A string input checked by `check`, which answers the value or the problem's wording;
 * `missing` words the problem of a required input left out.
 */
function input<T>(check: (value: string) => { ok: T } | { problem: string }, missing?: string) {
  return z.string(missing ? { error: () => missing } : undefined).transform((value, ctx) => {
    const result = check(value);
    if ('ok' in result) return result.ok;
    ctx.addIssue({ code: 'custom', message: result.problem });
    return z.NEVER;
  });
}

// Spelled like the YAML 1.2 core schema, as @actions/core's getBooleanInput does.
const BOOLEANS: Record<string, boolean> = {
  true: true,
  True: true,
  TRUE: true,
  false: false,
  False: false,
  FALSE: false,
};

const boolean = (name: InputName) =>
  input<boolean>((value) =>
    value in BOOLEANS
      ? { ok: BOOLEANS[value] === true }
      : { problem: `${name} must be true or false (got ${shown(value)})` },
  ).default(true);

function httpUrl(value: string): URL | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url : undefined;
  } catch {
    return undefined;
  }
}

const schema = z.object({
  'api-key': input<string>(
    (value) =>
      // The value is never echoed: it is a secret even when it is a wrong one.
      /^svc_(live|test)_\S+$/.test(value)
        ? { ok: value }
        : { problem: 'api-key must be a Redline API token (svc_live_… or svc_test_…); the value given is not one' },
    'api-key is required: a Redline API token with review:read and review:write, from a secret',
  ),
  'api-url': input<string>((value) => {
    const url = httpUrl(value);
    const path = url?.pathname.replace(/\/+$/, '');
    if (url === undefined || path === undefined || !path.endsWith('/v1') || url.search || url.hash) {
      return { problem: `api-url must be the API's http(s) base URL ending in /v1 (got ${shown(value)})` };
    }
    return { ok: `${url.origin}${path}` };
  }, 'api-url is required: the Redline API base URL ending in /v1'),
  'pull-request-url': input<string>((value) =>
    httpUrl(value)
      ? { ok: value }
      : { problem: `pull-request-url must be a pull request's http(s) URL (got ${shown(value)})` },
  ).optional(),
  'fail-on': input<FailOn>((value) =>
    (FAIL_ON as readonly string[]).includes(value)
      ? { ok: value as FailOn }
      : { problem: `fail-on must be one of ${FAIL_ON.join(', ')} (got ${shown(value)})` },
  ).default('critical'),
  'timeout-seconds': input<number>((value) =>
    /^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_TIMEOUT_SECONDS
      ? { ok: Number(value) }
      : { problem: `timeout-seconds must be a whole number from 1 to ${MAX_TIMEOUT_SECONDS} (got ${shown(value)})` },
  ).default(600),
  'inline-comments': boolean('inline-comments'),
  'check-security': boolean('check-security'),
  'check-performance': boolean('check-performance'),
  'team-id': z.string().optional(),
  'github-token': z.string().optional(),
});

/**
 * Decisions §8's inputs from their raw strings (as the runner passes them: trimmed, '' when
 * unset). An empty input takes its default, as a workflow that leaves it out expects.
 */
export function parseActionInputs(raw: Partial<Record<InputName, string>>): ActionInputs {
  const given = Object.fromEntries(
    INPUT_NAMES.map((name) => [name, raw[name]?.trim() ? raw[name]?.trim() : undefined]),
  ) as Partial<Record<InputName, string>>;
  const result = schema.safeParse(given);
  if (!result.success) throw new InputError(result.error.issues.map((issue) => issue.message));
  const v = result.data;
  return {
    apiKey: v['api-key'],
    apiUrl: v['api-url'],
    pullRequestUrl: v['pull-request-url'],
    failOn: v['fail-on'],
    timeoutSeconds: v['timeout-seconds'],
    inlineComments: v['inline-comments'],
    checkSecurity: v['check-security'],
    checkPerformance: v['check-performance'],
    teamId: v['team-id'],
    githubToken: v['github-token'],
  };
}
