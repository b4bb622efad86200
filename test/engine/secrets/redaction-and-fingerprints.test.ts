import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../../src/engine/secrets/find-secrets.js';
import { added, type Fakes, fakes } from './fake-secrets.js';

const f = fakes(99);
const makers: ((x: Fakes) => string)[] = [
  (x) => x.awsAccessKeyId(),
  (x) => x.github('p'),
  (x) => x.github('s'),
  (x) => x.githubFineGrained(),
  (x) => x.gitlab(),
  (x) => x.slack('b'),
  (x) => x.slackWebhook(),
  (x) => x.stripe('sk'),
  (x) => x.google(),
  (x) => x.npm(),
  (x) => x.sendgrid(),
  (x) => x.twilio(),
  (x) => x.openaiProject(),
  (x) => x.openaiLegacy(),
  (x) => x.anthropic(),
];

describe('redaction', () => {
  it('never lets a secret into a finding, whatever surrounds it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: makers.length - 1 }),
        fc.integer(),
        fc.constantFrom('', ' ', '"', "'", '=', ': ', '(', '`', ',', '\t'),
        fc.constantFrom('', ' ', '"', "'", ';', ')', ',', '`', '\n'),
        fc.string({ maxLength: 20 }).map((s) => s.replace(/[A-Za-z0-9_-]+$/, '')),
        (which, seed, before, after, prefix) => {
          const secret = (makers[which] ?? makers[0])?.(fakes(seed)) ?? '';
          const line = `${prefix}${before}${secret}${after}`;
          const findings = findSecrets({ path: 'src/a.ts', addedLines: added([line]) });
          expect(findings.length).toBeGreaterThanOrEqual(1);
          const json = JSON.stringify(findings);
          expect(json).not.toContain(secret);
          // Nor any long piece of it (a tail left after a partial match).
          expect(json).not.toContain(secret.slice(8, 24));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('redacts every secret on the line in every finding of that line', () => {
    const a = f.awsAccessKeyId();
    const b = f.awsSecretKey();
    const password = f.password();
    const line = `aws_access_key_id=${a} aws_secret_access_key=${b} url=postgres://u:${password}@db.acme.io/x`;
    const findings = findSecrets({ path: 'deploy/.env', addedLines: added([line]) });
    expect(findings.map((x) => x.ruleId)).toEqual([
      'secrets.aws-access-key-id',
      'secrets.aws-secret-access-key',
      'secrets.url-credentials',
    ]);
    const json = JSON.stringify(findings);
    for (const secret of [a, b, password]) expect(json).not.toContain(secret);
    for (const x of findings) {
      expect(x.codeSnippet).toBe(
        `aws_access_key_id=${a.slice(0, 4)}… aws_secret_access_key=${b.slice(0, 4)}… url=postgres://u:${password.slice(0, 4)}…@db.acme.io/x`,
      );
    }
  });

  it('cuts a long line to a window around the secret', () => {
    const token = f.github('p');
    const line = `${'x'.repeat(5000)} "${token}" ${'y'.repeat(5000)}`;
    const [finding] = findSecrets({ path: 'dist/app.min.js', addedLines: added([line]) });
    expect(finding?.codeSnippet?.length).toBeLessThanOrEqual(242);
    expect(finding?.codeSnippet).toContain('"ghp_…"');
    expect(finding?.codeSnippet).not.toContain(token);
  });
});

describe('fingerprints', () => {
  const token = f.github('p');
  const at = (line: number, path = 'src/a.ts', text = `auth: '${token}'`) =>
    findSecrets({ path, addedLines: new Map([[line, text]]) })[0]?.fingerprint;

  it('stays the same when the line moves or its surroundings change', () => {
    expect(at(3)).toMatch(/^[0-9a-f]{16}$/);
    expect(at(3)).toBe(at(300));
    expect(at(3)).toBe(at(7, 'src/a.ts', `  const client = new Octokit({ auth: "${token}" }) // moved`));
  });

  it('differs by file and by secret, and does not contain the secret', () => {
    expect(at(3)).not.toBe(at(3, 'src/b.ts'));
    expect(at(3)).not.toBe(at(3, 'src/a.ts', `auth: '${f.github('p')}'`));
    expect(token).not.toContain(at(3) ?? 'x');
  });
});

describe('scope', () => {
  it('scans only the added lines it is given and reports their own numbers', () => {
    const lines = new Map([
      [4, `a = "${f.npm()}"`],
      [9, 'nothing here'],
      [57, `b = "${f.google()}"`],
    ]);
    const findings = findSecrets({ path: 'src/a.ts', addedLines: lines });
    expect(findings.map((x) => [x.ruleId, x.line])).toEqual([
      ['secrets.npm-token', 4],
      ['secrets.google-api-key', 57],
    ]);
  });

  it('reports in line order whatever the order of the map', () => {
    const lines = new Map([
      [57, `b = "${f.google()}"`],
      [4, `a = "${f.npm()}"`],
    ]);
    expect(findSecrets({ path: 'src/a.ts', addedLines: lines }).map((x) => x.line)).toEqual([4, 57]);
  });

  it('does not exempt tests and fixtures: a leaked token there is still a leak', () => {
    for (const path of ['test/fixtures/github.json', 'spec/support/auth_spec.rb', 'src/__tests__/client.test.ts']) {
      expect(findSecrets({ path, addedLines: added([`"token": "${f.github('p')}"`]) })).toHaveLength(1);
    }
  });

  it('finds nothing in an empty change', () => {
    expect(findSecrets({ path: 'src/a.ts', addedLines: new Map() })).toEqual([]);
  });
});
