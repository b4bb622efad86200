import { isExampleToken } from './placeholders.js';
import { isValidRedlineToken } from './redline-token.js';
import { SECRET_CVSS } from './secret-cvss.js';
import { committedMessage } from './secret-match.js';

/**
 * A credential with a recognisable shape. Every pattern starts with a literal prefix and uses
 * only bounded repetitions, so a match attempt costs a constant and a line scans in linear time.
 */
export interface TokenRule {
  ruleId: string;
  /** Literal substrings one of which must occur in the line before the pattern runs. */
  hints: readonly string[];
  /** Global; the whole match is the secret, or the named group `secret`, which must end the match. */
  pattern: RegExp;
  /** Length of the fixed prefix: what follows it is checked for stand-ins. */
  prefixLength: (secret: string) => number;
  message: (secret: string) => string;
  /** CVSS 3.1 base score: what the token lets its finder do (SECRET_CVSS). */
  cvss: number;
  /** Extra validation (a checksum, a character mix) beyond the shape. */
  accept?: (secret: string) => boolean;
}

const fixed = (n: number) => () => n;

/** Random base64url bodies have digits and both cases; prose-like "sk-proj-settings-…" does not. */
function mixed(body: string): boolean {
  return /[0-9]/.test(body) && /[a-z]/.test(body) && /[A-Z]/.test(body);
}

const AWS_IMPACT = 'anyone with read access to the repository can act as that AWS identity';
const AWS_REMEDY = 'Deactivate the key in IAM and load credentials from the environment or an IAM role.';

const GITHUB_KINDS: Record<string, string> = {
  ghp_: 'a GitHub personal access token',
  gho_: 'a GitHub OAuth access token',
  ghu_: 'a GitHub App user-to-server token',
  ghs_: 'a GitHub App installation token',
  ghr_: 'a GitHub refresh token',
};

const SLACK_KINDS: Record<string, string> = {
  'xoxb-': 'a Slack bot token',
  'xoxp-': 'a Slack user token',
  'xoxa-': 'a Slack workspace app token',
  'xoxr-': 'a Slack refresh token',
};

export const TOKEN_RULES: readonly TokenRule[] = [
  {
    ruleId: 'secrets.aws-access-key-id',
    cvss: SECRET_CVSS.accountTakeover,
    hints: ['AKIA', 'ASIA'],
    pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z2-7]{16}(?![A-Za-z0-9])/g,
    prefixLength: fixed(0),
    message: () => committedMessage('an AWS access key ID', AWS_IMPACT, AWS_REMEDY),
  },
  {
    ruleId: 'secrets.aws-secret-access-key',
    cvss: SECRET_CVSS.accountTakeover,
    hints: ['ecret', 'ECRET'],
    // Only next to an AWS key name: forty base64 characters alone are too common to report.
    pattern:
      /(?<![A-Za-z0-9])(?:aws[_.-]?secret[_.-]?(?:access[_.-]?)?key|secret[_.-]?access[_.-]?key)["'\]]?\s{0,4}(?::=|=>|=|:)\s{0,4}["']?(?<secret>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi,
    prefixLength: fixed(0),
    message: () => committedMessage('an AWS secret access key', AWS_IMPACT, AWS_REMEDY),
  },
  {
    ruleId: 'secrets.github-token',
    cvss: SECRET_CVSS.accountTakeover,
    hints: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'],
    pattern: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g,
    prefixLength: fixed(4),
    message: (s) => committedMessage(GITHUB_KINDS[s.slice(0, 4)] ?? 'a GitHub token'),
  },
  {
    ruleId: 'secrets.github-token',
    cvss: SECRET_CVSS.accountTakeover,
    hints: ['github_pat_'],
    pattern: /(?<![A-Za-z0-9_])github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}(?![A-Za-z0-9_])/g,
    prefixLength: fixed(11),
    message: () => committedMessage('a GitHub fine-grained personal access token'),
  },
  {
    ruleId: 'secrets.gitlab-token',
    cvss: SECRET_CVSS.accountTakeover,
    hints: ['glpat-'],
    pattern: /(?<![A-Za-z0-9_-])glpat-[A-Za-z0-9_-]{20}[A-Za-z0-9_.-]{0,80}/g,
    prefixLength: fixed(6),
    message: () => committedMessage('a GitLab personal access token'),
  },
  {
    ruleId: 'secrets.slack-token',
    cvss: SECRET_CVSS.apiReadWrite,
    hints: ['xoxb-', 'xoxp-', 'xoxa-', 'xoxr-'],
    pattern: /(?<![A-Za-z0-9_-])xox[bpar]-(?:[0-9]{1,20}-){1,4}[A-Za-z0-9]{8,64}(?![A-Za-z0-9_-])/g,
    prefixLength: (s) => s.lastIndexOf('-') + 1,
    message: (s) => committedMessage(SLACK_KINDS[s.slice(0, 5)] ?? 'a Slack token'),
  },
  {
    ruleId: 'secrets.slack-webhook',
    cvss: SECRET_CVSS.postOnly,
    hints: ['hooks.slack.com/services/'],
    pattern: /hooks\.slack\.com\/services\/T[A-Z0-9]{6,12}\/B[A-Z0-9]{6,12}\/[A-Za-z0-9]{20,32}(?![A-Za-z0-9])/g,
    prefixLength: (s) => s.lastIndexOf('/') + 1,
    message: () =>
      committedMessage(
        'a Slack incoming-webhook URL',
        'anyone with read access to the repository can post to the channel',
        'Regenerate the webhook and load its URL from the environment.',
      ),
  },
  {
    ruleId: 'secrets.stripe-secret-key',
    cvss: SECRET_CVSS.accountTakeover,
    hints: ['sk_live_', 'rk_live_'],
    pattern: /(?<![A-Za-z0-9_])[sr]k_live_[A-Za-z0-9]{20,247}/g,
    prefixLength: fixed(8),
    message: (s) =>
      committedMessage(
        s.startsWith('rk_') ? 'a Stripe live restricted key' : 'a Stripe live secret key',
        'anyone with read access to the repository can charge, refund and read customers with it',
        'Roll the key in the Stripe dashboard and load it from the environment.',
      ),
  },
  {
    ruleId: 'secrets.google-api-key',
    cvss: SECRET_CVSS.apiRead,
    hints: ['AIza'],
    pattern: /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g,
    prefixLength: fixed(4),
    message: () =>
      committedMessage(
        'a Google API key',
        'anyone with read access to the repository can use it and bill its project',
        'Restrict or regenerate it and load it from the environment.',
      ),
  },
  {
    ruleId: 'secrets.npm-token',
    cvss: SECRET_CVSS.accountTakeover,
    hints: ['npm_'],
    pattern: /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g,
    prefixLength: fixed(4),
    message: () =>
      committedMessage(
        'an npm access token',
        'anyone with read access to the repository can publish packages as its owner',
        'Revoke it on npmjs.com and load it from the environment.',
      ),
  },
  {
    ruleId: 'secrets.sendgrid-api-key',
    cvss: SECRET_CVSS.apiReadWrite,
    hints: ['SG.'],
    pattern: /(?<![A-Za-z0-9_-])SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
    prefixLength: fixed(3),
    message: () =>
      committedMessage(
        'a SendGrid API key',
        'anyone with read access to the repository can send mail as you',
        'Revoke it and load it from the environment.',
      ),
  },
  {
    ruleId: 'secrets.twilio-api-key',
    cvss: SECRET_CVSS.apiReadWrite,
    hints: ['SK'],
    pattern: /(?<![A-Za-z0-9_])SK[0-9a-fA-F]{32}(?![A-Za-z0-9_])/g,
    prefixLength: fixed(2),
    message: () => committedMessage('a Twilio API key'),
  },
  {
    ruleId: 'secrets.openai-api-key',
    cvss: SECRET_CVSS.apiReadWrite,
    hints: ['sk-'],
    pattern: /(?<![A-Za-z0-9_-])sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,300}|[A-Za-z0-9]{48}(?![A-Za-z0-9_-]))/g,
    prefixLength: (s) => (/^sk-(?:proj|svcacct|admin)-/.test(s) ? s.indexOf('-', 3) + 1 : 3),
    accept: (s) => mixed(s.slice(3)),
    message: () => committedMessage('an OpenAI API key'),
  },
  {
    ruleId: 'secrets.anthropic-api-key',
    cvss: SECRET_CVSS.apiReadWrite,
    hints: ['sk-ant-'],
    pattern: /(?<![A-Za-z0-9_-])sk-ant-[a-z]{2,10}[0-9]{2}-[A-Za-z0-9_-]{32,300}/g,
    prefixLength: (s) => s.indexOf('-', 7) + 1,
    accept: (s) => mixed(s.slice(s.indexOf('-', 7) + 1)),
    message: () => committedMessage('an Anthropic API key'),
  },
  {
    ruleId: 'secrets.redline-token',
    cvss: SECRET_CVSS.apiReadWrite,
    hints: ['svc_live_', 'svc_test_'],
    pattern: /(?<![A-Za-z0-9_])svc_(?:live|test)_[A-Za-z0-9]{38,128}(?![A-Za-z0-9_])/g,
    prefixLength: fixed(9),
    accept: isValidRedlineToken,
    message: (s) =>
      committedMessage(
        s.startsWith('svc_live_') ? 'a Redline live API token' : 'a Redline test API token',
        'anyone with read access to the repository can call the Redline API as its owner',
        'Revoke it and load it from the environment.',
      ),
  },
];

/** Shape, extra validation, and not a documented example or an obvious stand-in. */
export function acceptToken(rule: TokenRule, secret: string): boolean {
  if (rule.accept !== undefined && !rule.accept(secret)) return false;
  return !isExampleToken(secret.slice(rule.prefixLength(secret)));
}
