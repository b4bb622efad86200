import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../../src/engine/secrets/find-secrets.js';
import { added, BASE62, BASE64, fakes } from './fake-secrets.js';

/**
 * Inputs that make a quadratic scan (or a backtracking regex) hang for minutes; a linear one
 * takes well under a second. No timing is asserted: the test timeout is the alarm.
 */
const MB = 1_000_000;
const f = fakes(5);

const hostile: [label: string, line: string][] = [
  ['one letter', 'a'.repeat(MB)],
  ['base62', f.pick(BASE62, MB)],
  ['base64', f.pick(BASE64, MB)],
  ['token prefixes', `gh${'p'}_`.repeat(MB / 4)],
  ['token prefixes with bodies one short', `gh${'p'}_${'a'.repeat(35)} `.repeat(MB / 41)],
  ['Stripe prefixes', `sk_${'live'}_`.repeat(MB / 8)],
  ['Slack digit groups', `xo${'xb'}-1-`.repeat(MB / 7)],
  ['AWS names', 'aws_secret_access_key='.repeat(MB / 22)],
  ['equals signs', '='.repeat(MB)],
  ['colons', ':'.repeat(MB)],
  ['credential assignments', 'password="'.repeat(MB / 10)],
  ['credential assignments with values', 'secret: "ab", '.repeat(MB / 14)],
  ['long credential names', `${'password'.repeat(MB / 8)}="x"`],
  ['an unterminated literal', `api_key = "${'Zq8v'.repeat(MB / 4)}`],
  ['scheme separators', '://'.repeat(MB / 3)],
  ['URL authorities', 'a://b:c'.repeat(MB / 7)],
  ['key headers', `-----BEGIN ${'RSA '}PRIVATE ${'KEY'}-----`.repeat(MB / 36)],
  ['quotes and backslashes', '"\\'.repeat(MB / 2)],
];

describe('linear time', () => {
  it.each(hostile)('scans a 1 MB line of %s', (_label, line) => {
    const findings = findSecrets({ path: 'dist/bundle.min.js', addedLines: added([line]) });
    expect(Array.isArray(findings)).toBe(true);
  });

  it('scans a 1 MB minified line and still finds the one token in it', () => {
    const token = f.github('p');
    const filler = 'var a=b?c:d;function e(f){return f.g=h,i("j")};'.repeat(MB / 96);
    const line = `${filler}const t="${token}";${filler}`;
    const findings = findSecrets({ path: 'dist/bundle.min.js', addedLines: added([line]) });
    expect(findings.map((x) => x.ruleId)).toEqual(['secrets.github-token']);
  });

  it('reports every token of a 1 MB line made of tokens, each snippet cut short', () => {
    const count = Math.floor(MB / 41);
    const line = Array.from({ length: count }, () => f.github('p')).join(' ');
    const findings = findSecrets({ path: 'dump.txt', addedLines: added([line]) });
    expect(findings).toHaveLength(count);
    expect(findings.every((x) => (x.codeSnippet?.length ?? 0) <= 242)).toBe(true);
  });

  it('reports every key of a 1 MB line of one-line keys', () => {
    const key = `-----BEGIN ${'EC '}PRIVATE ${'KEY'}-----\\n${f.pick(BASE64, 64)}\\n-----END ${'EC '}PRIVATE ${'KEY'}-----`;
    const line = `${key} `.repeat(Math.floor(MB / (key.length + 1)));
    const findings = findSecrets({ path: 'keys.json', addedLines: added([line]) });
    expect(findings).toHaveLength(Math.floor(MB / (key.length + 1)));
  });

  it('scans a 1 MB line of key headers followed by 400 lines of key body', () => {
    const lines = [
      `-----BEGIN ${'RSA '}PRIVATE ${'KEY'}-----`.repeat(MB / 36),
      ...Array.from({ length: 400 }, () => f.pick(BASE64, 64)),
    ];
    const findings = findSecrets({ path: 'keys.txt', addedLines: added(lines) });
    expect(findings).toHaveLength(1);
  });

  it('scans 50,000 added lines and finds the secrets among them', () => {
    const lines = Array.from({ length: 50_000 }, (_, i) =>
      i % 3 === 0
        ? `  const value${i} = compute("${f.pick(BASE62, 24)}", options.password_field, token);`
        : `  total += items[${i}].price * rate; // keys: ${f.pick(BASE64, 40)}`,
    );
    lines[25_000] = `NPM_TOKEN = "${f.npm()}"`;
    lines[49_999] = `const key = "${f.google()}";`;
    const findings = findSecrets({ path: 'src/generated-but-reviewed.ts', addedLines: added(lines) });
    expect(findings.map((x) => [x.ruleId, x.line])).toEqual([
      ['secrets.npm-token', 25_001],
      ['secrets.google-api-key', 50_000],
    ]);
  });

  it('scans 50,000 lines of key headers and key bodies', () => {
    const body = Array.from({ length: 50_000 }, (_, i) =>
      i % 1000 === 0 ? `-----BEGIN ${'RSA '}PRIVATE ${'KEY'}-----` : f.pick(BASE64, 64),
    );
    const findings = findSecrets({ path: 'keys.txt', addedLines: added(body) });
    // Every header is followed by a long body, so each one is a (truncated) key.
    expect(findings).toHaveLength(50);
    expect(new Set(findings.map((x) => x.ruleId))).toEqual(new Set(['secrets.private-key']));
  });
});
