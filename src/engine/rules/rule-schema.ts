import { SEVERITIES, type Severity } from '../../common/severity.js';
import { FINDING_TYPES, type FindingType } from '../finding-types.js';

const LANGUAGES = ['javascript', 'typescript', 'python', 'go', 'java', 'ruby'] as const;

/**
 * A rule is data: validated at load, so a malformed pack fails at start, not mid-review. `rule`
 * is an ast-grep rule object (pattern, kind, has, inside, not, any, all, regex, ...), matched on
 * the file's syntax tree; a finding is reported only when the match touches an added line.
 */
export interface Rule {
  /** `<pack>.<name>`, e.g. `js.eval`. */
  id: string;
  languages: (typeof LANGUAGES)[number][];
  type: FindingType;
  severity: Severity;
  /** What is wrong and why, in one or two sentences. */
  message: string;
  /** ast-grep rule (https://ast-grep.github.io/reference/rule.html). */
  rule: Record<string, unknown>;
  constraints?: Record<string, unknown> | undefined;
  /** Replacement for the matched node, with $METAVARS: rendered as a GitHub suggestion. */
  fix?: string | undefined;
  /**
   * The id of a rule that reports the same problem at a better place (where a secret is made,
   * rather than where its generator is declared): when that rule comments on the file, this one
   * does not.
   */
  deferTo?: string | undefined;
  /** Required for security rules. */
  cwe?: string | undefined;
  cvss?: number | undefined;
}

/** One problem of a rule: the field's path (`languages.0`, or '' for the rule itself) and what is wrong. */
export interface RuleProblem {
  field: string;
  message: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;

/**
 * Every problem of a raw rule, in field order (none: it is a Rule). Written by hand rather than
 * with the schema library the API uses: this runs in every `redline review`, where loading that
 * library (about a hundred modules) cost more than the rest of the rule packs.
 */
export function ruleProblems(raw: unknown): RuleProblem[] {
  if (!isRecord(raw)) return [{ field: '', message: 'must be an object' }];
  const problems: RuleProblem[] = [];
  const problem = (field: string, message: string) => problems.push({ field, message });
  const { id, languages, type, severity, message, rule, constraints, fix, deferTo, cwe, cvss } = raw;
  if (typeof id !== 'string') problem('id', 'must be a string');
  else if (!/^[a-z]+\.[a-z0-9-]+$/.test(id)) problem('id', 'must look like <pack>.<name>, e.g. js.eval');
  if (!Array.isArray(languages)) problem('languages', 'must be a list');
  else if (languages.length === 0) problem('languages', 'must name at least one language');
  else
    languages.forEach((l, i) => {
      if (!(LANGUAGES as readonly unknown[]).includes(l)) problem(`languages.${i}`, oneOf(LANGUAGES));
    });
  if (!(FINDING_TYPES as readonly unknown[]).includes(type)) problem('type', oneOf(FINDING_TYPES));
  if (!(SEVERITIES as readonly unknown[]).includes(severity)) problem('severity', oneOf(SEVERITIES));
  if (typeof message !== 'string' || message.length < 20)
    problem('message', 'must be a string of 20 characters or more');
  if (!isRecord(rule)) problem('rule', 'must be an ast-grep rule object');
  if (constraints !== undefined && !isRecord(constraints)) problem('constraints', 'must be an object');
  if (fix !== undefined && typeof fix !== 'string') problem('fix', 'must be a string');
  if (deferTo !== undefined && (typeof deferTo !== 'string' || deferTo === id))
    problem('deferTo', "must be another rule's id");
  if (cwe !== undefined && (typeof cwe !== 'string' || !/^CWE-\d+$/.test(cwe))) problem('cwe', 'must look like CWE-89');
  if (cvss !== undefined && (typeof cvss !== 'number' || !(cvss >= 0 && cvss <= 10)))
    problem('cvss', 'must be a number from 0 to 10');
  if (problems.length === 0 && type === 'security' && cwe === undefined) problem('cwe', 'security rules need a cwe');
  return problems;
}
