import { describe, expect, it } from 'vitest';
import { generateApiToken } from '../../../src/auth/api-token-format.js';
import { findSecrets } from '../../../src/engine/secrets/find-secrets.js';
import { added, BASE32, BASE62, fakes, HEX } from './fake-secrets.js';

const f = fakes(7);

function scan(line: string, path = 'src/config.ts') {
  return findSecrets({ path, addedLines: added([line]) });
}

const samples: [ruleId: string, kind: string, secret: string, line: (s: string) => string][] = [
  ['secrets.aws-access-key-id', 'AWS access key ID', f.awsAccessKeyId(), (s) => `const accessKeyId = '${s}';`],
  ['secrets.aws-access-key-id', 'AWS access key ID', f.awsSessionKeyId(), (s) => `AWS_ACCESS_KEY_ID=${s}`],
  ['secrets.aws-secret-access-key', 'AWS secret access key', f.awsSecretKey(), (s) => `aws_secret_access_key = ${s}`],
  ['secrets.aws-secret-access-key', 'AWS secret access key', f.awsSecretKey(), (s) => `  secretAccessKey: "${s}",`],
  ['secrets.github-token', 'GitHub personal access token', f.github('p'), (s) => `token: '${s}'`],
  ['secrets.github-token', 'GitHub OAuth access token', f.github('o'), (s) => `Authorization: token ${s}`],
  ['secrets.github-token', 'GitHub App user-to-server token', f.github('u'), (s) => `x = "${s}"`],
  ['secrets.github-token', 'GitHub App installation token', f.github('s'), (s) => `x = "${s}"`],
  ['secrets.github-token', 'GitHub refresh token', f.github('r'), (s) => `x = "${s}"`],
  ['secrets.github-token', 'GitHub fine-grained personal access token', f.githubFineGrained(), (s) => `GH_TOKEN=${s}`],
  ['secrets.gitlab-token', 'GitLab personal access token', f.gitlab(), (s) => `private_token = "${s}"`],
  ['secrets.slack-token', 'Slack bot token', f.slack('b'), (s) => `slack = WebClient("${s}")`],
  ['secrets.slack-token', 'Slack user token', f.slack('p'), (s) => `"${s}"`],
  ['secrets.slack-token', 'Slack workspace app token', f.slack('a'), (s) => `"${s}"`],
  ['secrets.slack-token', 'Slack refresh token', f.slack('r'), (s) => `"${s}"`],
  ['secrets.slack-webhook', 'Slack incoming-webhook URL', f.slackWebhook(), (s) => `fetch('${s}', { method: 'POST' })`],
  ['secrets.stripe-secret-key', 'Stripe live secret key', f.stripe('sk'), (s) => `Stripe.api_key = "${s}"`],
  ['secrets.stripe-secret-key', 'Stripe live restricted key', f.stripe('rk'), (s) => `new Stripe('${s}')`],
  [
    'secrets.google-api-key',
    'Google API key',
    f.google(),
    (s) => `<script src="https://maps.googleapis.com/maps/api/js?key=${s}">`,
  ],
  ['secrets.npm-token', 'npm access token', f.npm(), (s) => `//registry.npmjs.org/:_authToken=${s}`],
  ['secrets.sendgrid-api-key', 'SendGrid API key', f.sendgrid(), (s) => `sgMail.setApiKey('${s}');`],
  ['secrets.twilio-api-key', 'Twilio API key', f.twilio(), (s) => `client = Client("${s}", secret)`],
  [
    'secrets.openai-api-key',
    'OpenAI API key',
    f.openaiProject(),
    (s) => `const openai = new OpenAI({ apiKey: '${s}' });`,
  ],
  ['secrets.openai-api-key', 'OpenAI API key', f.openaiLegacy(), (s) => `openai.api_key = "${s}"`],
  ['secrets.anthropic-api-key', 'Anthropic API key', f.anthropic(), (s) => `ANTHROPIC_API_KEY=${s}`],
  ['secrets.redline-token', 'Redline live API token', generateApiToken('live'), (s) => `REDLINE_TOKEN=${s}`],
  ['secrets.redline-token', 'Redline test API token', generateApiToken('test'), (s) => `token: '${s}'`],
];

describe('known token formats', () => {
  it.each(samples)('%s fires on a realistic %s', (ruleId, kind, secret, line) => {
    const findings = scan(line(secret));
    expect(findings).toHaveLength(1);
    const [finding] = findings;
    expect(finding).toMatchObject({
      type: 'security',
      severity: 'critical',
      ruleId,
      cwe: 'CWE-798',
      file: 'src/config.ts',
      line: 1,
    });
    expect(finding?.message).toContain(kind);
    expect(finding?.message).toContain('anyone with read access to the repository');
    expect(finding?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(findings)).not.toContain(secret);
    expect(finding?.codeSnippet).toContain('…');
  });

  it('words a GitHub personal access token as the contract does and keeps only its prefix', () => {
    const token = f.github('p');
    const [finding] = scan(`const client = new Octokit({ auth: '${token}' });`);
    expect(finding?.message).toBe(
      'A GitHub personal access token is committed: anyone with read access to the repository can use it. ' +
        'Revoke it and load it from the environment.',
    );
    expect(finding?.codeSnippet).toBe("const client = new Octokit({ auth: 'ghp_…' });");
  });

  it('reports each occurrence, several on one line, each redacted in every snippet', () => {
    const a = f.github('p');
    const b = f.npm();
    const findings = scan(`tokens = ["${a}", "${b}", "${a}"]`);
    expect(findings.map((x) => x.ruleId)).toEqual([
      'secrets.github-token',
      'secrets.npm-token',
      'secrets.github-token',
    ]);
    for (const finding of findings) expect(finding.codeSnippet).toBe('tokens = ["ghp_…", "npm_…", "ghp_…"]');
    expect(findings[0]?.fingerprint).toBe(findings[2]?.fingerprint);
  });
});

const near: [label: string, line: string][] = [
  ['AWS key id one character short', `id = "AK${'IA'}${f.pick(BASE32, 15)}"`],
  ['AWS key id one character long', `id = "AK${'IA'}${f.pick(BASE32, 17)}"`],
  ['AWS key id in lower case', `id = "ak${'ia'}${f.pick(BASE32, 16).toLowerCase()}"`],
  ['AWS key id with a wrong prefix', `id = "AK${'IB'}${f.pick(BASE32, 16)}"`],
  ['the documented AWS example key id', `aws_access_key_id = AKIAIOSFODNN7${'EXAMPLE'}`],
  ['the documented AWS example secret', `aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY${'EXAMPLEKEY'}`],
  ['forty base64 characters next to no AWS name', `digest = "${f.awsSecretKey()}"`],
  ['GitHub token one character short', `t = "gh${'p'}_${f.pick(BASE62, 35)}"`],
  ['GitHub token one character long', `t = "gh${'p'}_${f.pick(BASE62, 37)}"`],
  ['GitHub token with an unknown letter', `t = "gh${'x'}_${f.pick(BASE62, 36)}"`],
  ['GitHub placeholder', `t = "gh${'p'}_${'x'.repeat(36)}"`],
  ['GitLab token too short', `t = "gl${'pat-'}${f.pick(BASE62, 19)}"`],
  ['GitLab placeholder words', `t = "gl${'pat-'}your-personal-token-here"`],
  ['Slack prefix without digits', `t = "xo${'xb'}-not-a-real-token-at-all"`],
  ['Slack webhook without the secret part', `url = "https://hooks.slack.com/${'services'}/T0000/B0000"`],
  ['Stripe test key', `k = "sk_${'test'}_${f.pick(BASE62, 99)}"`],
  ['Stripe publishable key', `k = "pk_${'live'}_${f.pick(BASE62, 99)}"`],
  ['Stripe prefix too short', `k = "sk_${'live'}_${f.pick(BASE62, 19)}"`],
  ['Google key too short', `k = "AI${'za'}${f.pick(BASE62, 34)}"`],
  ['Google key too long', `k = "AI${'za'}${f.pick(BASE62, 36)}"`],
  ['npm token too short', `k = "np${'m_'}${f.pick(BASE62, 35)}"`],
  ['SendGrid key with a short segment', `k = "S${'G.'}${f.pick(BASE62, 21)}.${f.pick(BASE62, 43)}"`],
  ['Twilio key one digit short', `k = "S${'K'}${f.pick(HEX, 31)}"`],
  ['Twilio key with a non-hex character', `k = "S${'K'}${f.pick(HEX, 31)}g"`],
  ['OpenAI legacy key one character short', `k = "s${'k-'}${f.pick(BASE62, 47)}"`],
  ['OpenAI project prefix on prose', `k = "s${'k-'}proj-settings-and-configuration-for-the-new-project"`],
  ['Anthropic prefix on prose', `k = "s${'k-'}ant-api03-settings-and-configuration-for-the-new-project"`],
  ['Redline prefix with no checksum', `t = "svc_${'live'}_${f.pick(BASE62, 38)}"`],
];

describe('random bodies that happen to look like separated words', () => {
  it.each([
    // Found by the redaction property test: no digit, one hyphen, cases mixed within each part.
    ['a Google key', `AI${'za'}IImMNEnVhJHhlsxo-gMOwCWJPLJTorcTLPW`, 'secrets.google-api-key'],
    ['a GitLab token', `gl${'pat-'}QwErTyUiOpAsDfGh_JkLzX`, 'secrets.gitlab-token'],
  ])('reports %s whose body is letters around a separator', (_label, secret, ruleId) => {
    expect(scan(`k = "${secret}"`).map((x) => x.ruleId)).toEqual([ruleId]);
  });

  it.each([['YOUR_API_TOKEN_HERE'], ['Your-Token-Here'], ['your.token.here']])(
    'still reads %s after a Google prefix as a stand-in',
    (body) => {
      expect(scan(`k = "AI${'za'}${body}"`)).toEqual([]);
    },
  );
});

describe('random bodies with repeated characters', () => {
  // A seed the redaction property test found: a random AWS key ID whose fixed prefix repeats in
  // its body (entropy 2.97 bits a character), once read as a stand-in.
  it('reports a random key whose characters repeat, and still reads a run of one character as a stand-in', () => {
    const repetitive = fakes(1390804549).awsAccessKeyId();
    expect(scan(`k = "${repetitive}"`).map((x) => x.ruleId)).toEqual(['secrets.aws-access-key-id']);
    expect(scan(`k = "AKIA${'X'.repeat(16)}"`)).toEqual([]);
  });
});

describe('near misses', () => {
  it.each(near)('ignores %s', (_label, line) => {
    expect(scan(line)).toEqual([]);
  });

  it('rejects a Redline token whose checksum is off by one character', () => {
    const token = generateApiToken('live');
    const last = token.at(-1) ?? '0';
    const wrong = token.slice(0, -1) + (last === '0' ? '1' : '0');
    expect(scan(`t = "${wrong}"`).filter((x) => x.ruleId === 'secrets.redline-token')).toEqual([]);
  });
});
