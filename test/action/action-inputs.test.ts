import { describe, expect, it } from 'vitest';
import { InputError, parseActionInputs } from '../../src/action/action-inputs.js';

// Decisions §8's inputs: defaults when left out (GitHub passes '' for an input without a value),
// and one clear line per bad input, all at once.

const KEY = ['svc', 'live', 'a'.repeat(38)].join('_');
const minimal = { 'api-key': KEY, 'api-url': 'https://redline.example.com/v1' };

function problems(raw: Record<string, string>): string[] {
  try {
    parseActionInputs(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return (error as InputError).problems;
  }
  throw new Error('expected an InputError');
}

describe('parseActionInputs', () => {
  it('applies the defaults of action.yml to inputs left out or empty', () => {
    expect(parseActionInputs({ ...minimal, 'fail-on': '', 'team-id': '  ' })).toEqual({
      apiKey: KEY,
      apiUrl: 'https://redline.example.com/v1',
      pullRequestUrl: undefined,
      failOn: 'critical',
      timeoutSeconds: 600,
      inlineComments: true,
      checkSecurity: true,
      checkPerformance: true,
      teamId: undefined,
      githubToken: undefined,
    });
  });

  it('reads every input, trimmed, and drops a trailing slash of api-url', () => {
    expect(
      parseActionInputs({
        'api-key': ` ${KEY}\n`,
        'api-url': 'http://127.0.0.1:3000/v1/',
        'pull-request-url': 'https://github.com/acme/shop/pull/7',
        'fail-on': 'never',
        'timeout-seconds': '90',
        'inline-comments': 'False',
        'check-security': 'FALSE',
        'check-performance': 'True',
        'team-id': 'team_abc',
        'github-token': ' token-value ',
      }),
    ).toEqual({
      apiKey: KEY,
      apiUrl: 'http://127.0.0.1:3000/v1',
      pullRequestUrl: 'https://github.com/acme/shop/pull/7',
      failOn: 'never',
      timeoutSeconds: 90,
      inlineComments: false,
      checkSecurity: false,
      checkPerformance: true,
      teamId: 'team_abc',
      githubToken: 'token-value',
    });
  });

  it.each(['critical', 'important', 'warning', 'info', 'never'])('accepts fail-on %s', (level) => {
    expect(parseActionInputs({ ...minimal, 'fail-on': level }).failOn).toBe(level);
  });

  it('names both required inputs when they are missing', () => {
    expect(problems({})).toEqual([
      'api-key is required: a Redline API token with review:read and review:write, from a secret',
      'api-url is required: the Redline API base URL ending in /v1',
    ]);
  });

  it('says what is wrong with each bad input, in input order, and never echoes the key', () => {
    const wrongKey = ['ghp', 'x'.repeat(36)].join('_');
    const list = problems({
      'api-key': wrongKey,
      'api-url': 'https://redline.example.com/api',
      'pull-request-url': 'acme/shop#7',
      'fail-on': 'sometimes',
      'timeout-seconds': '10m',
      'inline-comments': 'yes',
      'check-security': 'no',
      'check-performance': '1',
    });
    expect(list).toEqual([
      'api-key must be a Redline API token (svc_live_… or svc_test_…); the value given is not one',
      'api-url must be the API\'s http(s) base URL ending in /v1 (got "https://redline.example.com/api")',
      'pull-request-url must be a pull request\'s http(s) URL (got "acme/shop#7")',
      'fail-on must be one of critical, important, warning, info, never (got "sometimes")',
      'timeout-seconds must be a whole number from 1 to 21600 (got "10m")',
      'inline-comments must be true or false (got "yes")',
      'check-security must be true or false (got "no")',
      'check-performance must be true or false (got "1")',
    ]);
    expect(list.join('\n')).not.toContain(wrongKey);
  });

  it.each([
    ['0', 'timeout-seconds must be a whole number from 1 to 21600 (got "0")'],
    ['21601', 'timeout-seconds must be a whole number from 1 to 21600 (got "21601")'],
    ['1.5', 'timeout-seconds must be a whole number from 1 to 21600 (got "1.5")'],
  ])('rejects timeout-seconds %s', (value, message) => {
    expect(problems({ ...minimal, 'timeout-seconds': value })).toEqual([message]);
  });

  it.each([
    'ftp://redline.example.com/v1',
    'https://redline.example.com/v1?x=1',
    'https://redline.example.com/v2',
    'redline.example.com/v1',
  ])('rejects api-url %s', (url) => {
    expect(problems({ ...minimal, 'api-url': url })).toEqual([
      `api-url must be the API's http(s) base URL ending in /v1 (got ${JSON.stringify(url)})`,
    ]);
  });

  it('writes the whole list into the error message, one line each', () => {
    expect(() => parseActionInputs({ ...minimal, 'fail-on': 'x', 'timeout-seconds': 'y' })).toThrow(
      'Invalid inputs:\n' +
        '- fail-on must be one of critical, important, warning, info, never (got "x")\n' +
        '- timeout-seconds must be a whole number from 1 to 21600 (got "y")',
    );
  });
});
