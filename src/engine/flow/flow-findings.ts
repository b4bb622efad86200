import type { SgNode } from '@ast-grep/napi';
import type { Language } from '../languages.js';
import type { RuleMatch } from '../rules/run-rules.js';
import type { Severity } from '../severity.js';
import { analyzeFlows, type TaintFlow } from './find-taint-flows.js';

interface FlowRule {
  slug: string;
  title: string;
  severity: Severity;
  cvss: number;
  advice: string;
}

/** Per CWE: the rule id's tail, the comment's words, and how bad it is. */
const RULES: Record<number, FlowRule> = {
  89: {
    slug: 'sql-injection',
    title: 'SQL injection',
    severity: 'critical',
    cvss: 9.8,
    advice: 'pass it as a bound parameter (a `?` or `%s` placeholder), never inside the query text',
  },
  943: {
    slug: 'nosql-injection',
    title: 'NoSQL injection',
    severity: 'critical',
    cvss: 9.1,
    advice: 'compare it as a typed value, never as an operator document or script',
  },
  78: {
    slug: 'command-injection',
    title: 'Command injection',
    severity: 'critical',
    cvss: 9.8,
    advice: 'run a fixed program with an argument list (no shell), and check the value against an allow-list',
  },
  94: {
    slug: 'code-injection',
    title: 'Code injection',
    severity: 'critical',
    cvss: 9.8,
    advice: 'never evaluate request input as code; map it to fixed behaviour instead',
  },
  95: {
    slug: 'code-injection',
    title: 'Code injection',
    severity: 'critical',
    cvss: 9.8,
    advice:
      'never evaluate request input as code; parse it (`ast.literal_eval`, `json.loads`) or map it to fixed behaviour',
  },
  1336: {
    slug: 'template-injection',
    title: 'Template injection',
    severity: 'critical',
    cvss: 9.8,
    advice: 'render a fixed template and pass the value as a variable',
  },
  502: {
    slug: 'unsafe-deserialization',
    title: 'Unsafe deserialisation',
    severity: 'critical',
    cvss: 9.8,
    advice: 'read request data with a data-only format (JSON) or a safe loader',
  },
  611: {
    slug: 'xxe',
    title: 'XML external entities',
    severity: 'critical',
    cvss: 8.2,
    advice: 'parse it with external entities and DTDs disabled',
  },
  22: {
    slug: 'path-traversal',
    title: 'Path traversal',
    severity: 'important',
    cvss: 7.5,
    advice: 'normalise the path and check it stays under the base directory, or keep only its file name',
  },
  79: {
    slug: 'xss',
    title: 'Cross-site scripting',
    severity: 'important',
    cvss: 6.1,
    advice: "escape it for HTML where it is written (or let the template engine's autoescaping do it)",
  },
  90: {
    slug: 'ldap-injection',
    title: 'LDAP injection',
    severity: 'important',
    cvss: 7.5,
    advice: 'escape it for an LDAP filter before building the query',
  },
  643: {
    slug: 'xpath-injection',
    title: 'XPath injection',
    severity: 'important',
    cvss: 7.5,
    advice: 'pass it as an XPath variable, or check it against an allow-list',
  },
  918: {
    slug: 'ssrf',
    title: 'Server-side request forgery',
    severity: 'important',
    cvss: 8.6,
    advice: 'check the URL against an allow-list of hosts before requesting it',
  },
  601: {
    slug: 'open-redirect',
    title: 'Open redirect',
    severity: 'important',
    cvss: 6.1,
    advice: 'redirect only to a relative path or a host on an allow-list',
  },
  501: {
    slug: 'trust-boundary',
    title: 'Trust boundary violation',
    severity: 'important',
    cvss: 5.4,
    advice: 'validate it before storing it in the session, where later code will trust it',
  },
  117: {
    slug: 'log-injection',
    title: 'Log injection',
    severity: 'important',
    cvss: 5.3,
    advice: 'strip line breaks from it (or log it as a structured field)',
  },
};

const PREFIX: Partial<Record<Language, string>> = { java: 'java', python: 'py' };

/** What each flow rule detects, by rule id (`py.flow.sql-injection`), for reports that list rules. */
export function flowRuleDescriptions(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const prefix of Object.values(PREFIX)) {
    for (const rule of Object.values(RULES)) {
      out[`${prefix}.flow.${rule.slug}`] =
        `${rule.title}: a value from outside the program reaches the sink unchecked.`;
    }
  }
  return out;
}

/**
 * The flow analysis' findings for a parsed file, shaped as rule matches: on the sink's line, the
 * comment naming the source's. `toReal` maps parsed lines to the file's (hunks parsed alone).
 */
export function flowFindings(
  language: Language,
  root: SgNode,
  path: string,
  source: string,
  toReal: (line: number) => number | undefined,
): RuleMatch[] {
  return flowReview(language, root, path, source, toReal).matches;
}

/**
 * The flow findings, and the rule matches they disprove: a security rule's match of a CWE on a
 * line where the analysis saw that CWE's sink reached only by the code's own constants (a branch
 * that always picks the constant, the last write of a map key) is not a finding.
 */
export function flowReview(
  language: Language,
  root: SgNode,
  path: string,
  source: string,
  toReal: (line: number) => number | undefined,
): { matches: RuleMatch[]; disproves: (match: RuleMatch) => boolean } {
  const prefix = PREFIX[language];
  const none = { matches: [], disproves: () => false };
  if (!prefix) return none;
  const lines = source.split(/\r?\n/);
  const matches: RuleMatch[] = [];
  let flows: TaintFlow[];
  let constantSinks: Set<string>;
  try {
    ({ flows, constantSinks } = analyzeFlows(language, root));
  } catch {
    // A tree the adapters do not expect costs this file its flow comments, never the review.
    return none;
  }
  for (const flow of flows) {
    const rule = RULES[flow.cwe];
    if (!rule) continue;
    const code = (lines[flow.sinkLine - 1] ?? '').trim();
    const from = toReal(flow.sourceLine);
    const what = flow.variable
      ? `\`${flow.variable}\` comes from ${flow.sourceDescription}`
      : `A value from ${flow.sourceDescription}`;
    const where = from === undefined ? '' : ` on line ${from}`;
    const ruleId = `${prefix}.flow.${rule.slug}`;
    matches.push({
      ruleId,
      type: 'security',
      severity: rule.severity,
      message: `${rule.title}: ${what}${where} and reaches this ${flow.sinkKind} unchecked; ${rule.advice}.`,
      path,
      line: flow.sinkLine,
      startLine: flow.sinkLine,
      endLine: flow.sinkLine,
      snippet: code.slice(0, 200),
      code: `${code}\0${flow.variable ?? ''}`,
      cwe: `CWE-${flow.cwe}`,
      cvss: rule.cvss,
    });
  }
  const disproves = (match: RuleMatch) =>
    match.type === 'security' && constantSinks.has(`${match.line}:${match.cwe?.replace(/^CWE-/, '')}`);
  return { matches, disproves };
}
