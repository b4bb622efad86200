import { describe, expect, it } from 'vitest';
import { generateApiToken } from '../../src/auth/api-token-format.js';
import { defaultCvss } from '../../src/engine/default-cvss.js';
import { llmFindings } from '../../src/engine/llm/merge-llm-review.js';
import { reviewChange } from '../../src/engine/review-change.js';
import { RULES } from '../../src/engine/rules/packs/index.js';
import { TOKEN_RULES } from '../../src/engine/secrets/token-rules.js';
import type { ChangedFile } from '../../src/engine/types.js';
import { fakes } from './secrets/fake-secrets.js';

/**
 * Spec 6.3 makes a security alert's `cvss_score` a number: every security finding, whatever its
 * source (secrets, rule packs, data flow, the model), carries a CWE and a CVSS base score.
 */

const f = fakes(23);

function addedFile(path: string, lines: string[]): ChangedFile {
  return {
    path,
    status: 'added',
    additions: lines.length,
    deletions: 0,
    patch: [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join('\n'),
    content: `${lines.join('\n')}\n`,
  };
}

/** One secret of every kind the scanner knows, each on its own line. */
const SECRET_LINES = [
  `const accessKeyId = '${f.awsAccessKeyId()}';`,
  `aws_secret_access_key = '${f.awsSecretKey()}'`,
  `const gh = '${f.github('p')}';`,
  `const gl = '${f.gitlab()}';`,
  `const slack = '${f.slack('b')}';`,
  `const hook = '${f.slackWebhook()}';`,
  `const stripe = '${f.stripe('sk')}';`,
  `const maps = '${f.google()}';`,
  `const npm = '${f.npm()}';`,
  `const mail = '${f.sendgrid()}';`,
  `const twilio = '${f.twilio()}';`,
  `const openai = '${f.openaiProject()}';`,
  `const claude = '${f.anthropic()}';`,
  `const redline = '${generateApiToken('live')}';`,
  `const db = 'postgres://app:${f.password()}@db.internal.acme.io:5432/app';`,
  `const password = '${f.password()}';`,
  'const key = `',
  ...f.privateKeyLines(),
  '`;',
];

/** What each secret lets its finder do decides its score (src/engine/secrets/secret-cvss.ts). */
const SECRET_SCORES: Record<string, { cwe: string; cvssScore: number }> = {
  'secrets.aws-access-key-id': { cwe: 'CWE-798', cvssScore: 9.8 },
  'secrets.aws-secret-access-key': { cwe: 'CWE-798', cvssScore: 9.8 },
  'secrets.github-token': { cwe: 'CWE-798', cvssScore: 9.8 },
  'secrets.gitlab-token': { cwe: 'CWE-798', cvssScore: 9.8 },
  'secrets.slack-token': { cwe: 'CWE-798', cvssScore: 9.1 },
  'secrets.slack-webhook': { cwe: 'CWE-798', cvssScore: 5.3 },
  'secrets.stripe-secret-key': { cwe: 'CWE-798', cvssScore: 9.8 },
  'secrets.google-api-key': { cwe: 'CWE-798', cvssScore: 8.2 },
  'secrets.npm-token': { cwe: 'CWE-798', cvssScore: 9.8 },
  'secrets.sendgrid-api-key': { cwe: 'CWE-798', cvssScore: 9.1 },
  'secrets.twilio-api-key': { cwe: 'CWE-798', cvssScore: 9.1 },
  'secrets.openai-api-key': { cwe: 'CWE-798', cvssScore: 9.1 },
  'secrets.anthropic-api-key': { cwe: 'CWE-798', cvssScore: 9.1 },
  'secrets.redline-token': { cwe: 'CWE-798', cvssScore: 9.1 },
  'secrets.url-credentials': { cwe: 'CWE-798', cvssScore: 8.1 },
  'secrets.generic-credential': { cwe: 'CWE-798', cvssScore: 7.5 },
  'secrets.private-key': { cwe: 'CWE-321', cvssScore: 9.8 },
};

const ALL_CHECKS = { checkSecurity: true, checkPerformance: true };

describe('every security finding carries a CWE and a CVSS score', () => {
  it('each secret rule has its CWE and the score that fits what the secret unlocks', () => {
    const { findings } = reviewChange({ files: [addedFile('src/config/keys.js', SECRET_LINES)] }, ALL_CHECKS);
    const byRule = Object.fromEntries(findings.map((x) => [x.ruleId, { cwe: x.cwe, cvssScore: x.cvssScore }]));
    expect(byRule).toEqual(SECRET_SCORES);
    // The table covers every token rule the scanner has: a new rule without a row fails here.
    for (const rule of TOKEN_RULES) expect(Object.keys(SECRET_SCORES)).toContain(rule.ruleId);
  });

  it('a pack rule without its own cvss gets the floor of its severity band; one with a cvss keeps it', () => {
    const weakHash = RULES.find((r) => r.id === 'js.weak-hash');
    expect(weakHash).toMatchObject({ type: 'security', severity: 'info' });
    expect(weakHash?.cvss).toBeUndefined();
    const { findings } = reviewChange(
      {
        files: [
          addedFile('src/auth/hash.js', [
            "const crypto = require('crypto');",
            'function digestOf(body) {',
            "  return crypto.createHash('md5').update(body).digest('hex');",
            '}',
            'async function findOrders(req, db) {',
            "  return db.query('SELECT * FROM orders WHERE customer = ' + req.query.customer);",
            '}',
          ]),
        ],
      },
      ALL_CHECKS,
    );
    const scores = findings.map((x) => ({ ruleId: x.ruleId, cwe: x.cwe, cvssScore: x.cvssScore }));
    expect(scores).toContainEqual({ ruleId: 'js.weak-hash', cwe: weakHash?.cwe, cvssScore: 0.1 });
    expect(scores).toContainEqual({ ruleId: 'js.sql-injection', cwe: 'CWE-89', cvssScore: 9.8 });
  });

  it('the default is the lowest score of the CVSS band each severity maps to', () => {
    expect([defaultCvss('critical'), defaultCvss('important'), defaultCvss('warning'), defaultCvss('info')]).toEqual([
      9.0, 7.0, 4.0, 0.1,
    ]);
  });

  it("the model's security comment gets a score by its severity; its other comments get none", () => {
    const review = {
      summary: 'ok',
      comments: [
        {
          file: 'a.js',
          line: 1,
          type: 'security' as const,
          severity: 'important' as const,
          message: 'Trusts the header.',
        },
        { file: 'a.js', line: 2, type: 'style' as const, severity: 'info' as const, message: 'Name this better.' },
      ],
    };
    const found = llmFindings(review, [], () => 'x();');
    expect(found.map((x) => x.cvssScore)).toEqual([7.0, undefined]);
  });

  it('no security finding of a mixed change lacks either', () => {
    const { findings } = reviewChange(
      {
        files: [
          addedFile('src/config/keys.js', SECRET_LINES),
          addedFile('app/calc.py', [
            'from flask import request',
            '',
            'def calc():',
            '    expression = request.args.get("expr")',
            '    return str(eval(expression))',
          ]),
        ],
      },
      ALL_CHECKS,
    );
    const security = findings.filter((x) => x.type === 'security');
    expect(security.length).toBeGreaterThan(SECRET_LINES.length / 2);
    for (const x of security) {
      expect(x.cwe, x.ruleId).toMatch(/^CWE-\d+$/);
      expect(typeof x.cvssScore, x.ruleId).toBe('number');
    }
  });
});
