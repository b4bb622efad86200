import { atOrAbove, type Severity } from '../../common/severity.js';
import { COMPLEX_FUNCTION_RULE } from '../complexity/complex-function.js';
import type { Finding } from '../types.js';
import type { FileRole } from './file-role.js';

/** What findings are, for deciding what they are worth outside production code. */
export type FindingCategory =
  | 'private-key'
  | 'known-token'
  | 'guessed-secret'
  | 'security'
  | 'bug'
  | 'swallowed-error'
  | 'performance'
  | 'style'
  | 'output'
  | 'complexity';

/**
 * What becomes of a finding: kept as it is, dropped, or lowered to at most a severity (`once`:
 * one finding of the rule per file, the first).
 */
export type Treatment = 'keep' | 'drop' | { atMost: Severity; once?: true };

type NonProduction = Exclude<FileRole, 'production'>;

const INFO = { atMost: 'info' } as const;
const WARNING = { atMost: 'warning' } as const;
const WARNING_ONCE = { atMost: 'warning', once: true } as const;
const DROPPED = {
  test: 'drop',
  fixture: 'drop',
  docs: 'drop',
  example: 'drop',
  generated: 'drop',
  vendored: 'drop',
} as const;

/**
 * The rule per category and role (the table in docs/engine.md). Production keeps every finding.
 * Tests and fixtures exercise the insecure and the broken on purpose (an `InsecureSkipVerify`
 * client for an `httptest` server, `eval` in a spec of an encoder), and their values are made up;
 * docs and examples show how to call things, with values nobody deploys. What stays: a key or a
 * token in a known format, which works wherever it is committed (one warning per file for a key:
 * a fixture's key is one problem, not one per use); everything else as `info` where a reader may
 * still copy it (docs, examples), or nothing. Generated and vendored files are skipped before any
 * analyzer runs; the table drops anything that reaches them all the same.
 */
export const ROLE_POLICY: Record<FindingCategory, Record<NonProduction, Treatment>> = {
  'private-key': {
    test: WARNING_ONCE,
    fixture: WARNING_ONCE,
    docs: INFO,
    example: WARNING_ONCE,
    generated: 'drop',
    vendored: 'drop',
  },
  'known-token': { test: WARNING, fixture: WARNING, docs: INFO, example: WARNING, generated: 'drop', vendored: 'drop' },
  // A secret guessed from a name in a test or fixture is a made-up value the test feeds its code;
  // in prose documentation it illustrates a setting (`SECRET_KEY = '...'` after "generate one
  // with"), and nobody can rotate it. A token in a known format in docs is still worth an `info`.
  'guessed-secret': { test: 'drop', fixture: 'drop', docs: 'drop', example: INFO, generated: 'drop', vendored: 'drop' },
  security: { test: 'drop', fixture: 'drop', docs: INFO, example: INFO, generated: 'drop', vendored: 'drop' },
  // A test provokes failures on purpose (a swallowed error in a set-up, `x == x` testing `__eq__`);
  // an example's bug is a real bug, but in code nobody runs in production.
  bug: { test: INFO, fixture: 'drop', docs: INFO, example: WARNING, generated: 'drop', vendored: 'drop' },
  // An error a test catches and ignores is the test's point: it provokes the failure (`raise` then
  // `except Exception: pass` to run a teardown; JUnit's `try { call(); fail(); } catch (E e) {}`).
  'swallowed-error': {
    test: 'drop',
    fixture: 'drop',
    docs: INFO,
    example: WARNING,
    generated: 'drop',
    vendored: 'drop',
  },
  // Tests are small and sequential on purpose; fixtures, docs and examples do not run under load.
  performance: DROPPED,
  style: { test: 'keep', fixture: 'drop', docs: 'keep', example: 'keep', generated: 'drop', vendored: 'drop' },
  // An example or a doc snippet prints on purpose (`Listening on port 3000`): its output is the
  // point. In a test, a print is debug output left behind, as in production.
  output: { test: 'keep', fixture: 'drop', docs: 'drop', example: 'drop', generated: 'drop', vendored: 'drop' },
  // Splitting a long test or example buys its readers little: the comment is for the product.
  complexity: DROPPED,
};

/** The rules reporting printed output (not a debugger statement, which is a mistake anywhere). */
const OUTPUT_RULES = new Set(['js.console-log', 'py.print', 'go.debug-print', 'java.system-out', 'rb.debug-output']);

/** The rules reporting an error caught (or returned) and ignored. */
const SWALLOWED_ERROR_RULES = new Set([
  'js.empty-catch',
  'py.bare-except',
  'py.swallowed-exception',
  'rb.swallowed-exception',
  'java.empty-catch',
  'go.ignored-error',
]);

/** Secrets whose format says they are credentials; the others are guessed from a name or a URL. */
const GUESSED_SECRETS = new Set(['secrets.generic-credential', 'secrets.url-credentials']);

export function findingCategory(finding: Pick<Finding, 'ruleId' | 'type'>): FindingCategory {
  const { ruleId, type } = finding;
  if (ruleId === 'secrets.private-key') return 'private-key';
  if (GUESSED_SECRETS.has(ruleId)) return 'guessed-secret';
  if (ruleId.startsWith('secrets.')) return 'known-token';
  if (ruleId === COMPLEX_FUNCTION_RULE) return 'complexity';
  if (OUTPUT_RULES.has(ruleId)) return 'output';
  if (SWALLOWED_ERROR_RULES.has(ruleId)) return 'swallowed-error';
  if (type === 'security' || type === 'bug' || type === 'performance') return type;
  return 'style';
}

/** The treatment of a category of findings in a file of this role. */
export function treatmentFor(role: FileRole, category: FindingCategory): Treatment {
  return role === 'production' ? 'keep' : ROLE_POLICY[category][role];
}

/** Whether an analyzer whose findings are all of this category is worth running on this role. */
export function roleKeeps(role: FileRole, category: FindingCategory): boolean {
  return treatmentFor(role, category) !== 'drop';
}

/** A lowered security finding's score stays within the CVSS band of the severity it now has. */
const BAND_CEILING: Record<Severity, number> = { critical: 10, important: 8.9, warning: 6.9, info: 3.9 };

/** One file's findings as its role has them (`ROLE_POLICY`); production's pass unchanged. */
export function applyRolePolicy(findings: readonly Finding[], role: FileRole): Finding[] {
  if (role === 'production') return [...findings];
  const out: Finding[] = [];
  const once = new Set<string>();
  for (const finding of findings) {
    const treatment = treatmentFor(role, findingCategory(finding));
    if (treatment === 'drop') continue;
    if (treatment === 'keep') {
      out.push(finding);
      continue;
    }
    if (treatment.once) {
      if (once.has(finding.ruleId)) continue;
      once.add(finding.ruleId);
    }
    const { atMost } = treatment;
    if (atOrAbove(atMost, finding.severity)) out.push(finding);
    else if (finding.cvssScore === undefined) out.push({ ...finding, severity: atMost });
    else out.push({ ...finding, severity: atMost, cvssScore: Math.min(finding.cvssScore, BAND_CEILING[atMost]) });
  }
  return out;
}
