import type { SgNode } from '@ast-grep/napi';
import type { Severity } from '../../common/severity.js';
import type { Language } from '../languages.js';
import type { RuleMatch } from '../rules/run-rules.js';
import { FLAG_OFF } from './evaluate-call.js';
import { analyzeFlows, type TaintFlow } from './find-taint-flows.js';

interface FlowRule {
  slug: string;
  title: string;
  severity: Severity;
  cvss: number;
  advice: string;
  /** What the rule detects, when it is not request input reaching a sink. */
  detects?: string;
  /** A milder severity for some of its flows (a redirect checked all but for a backslash). */
  severityOf?: (flow: TaintFlow) => Severity | undefined;
  /** The comment, when the usual "comes from ... reaches this ... unchecked" does not fit. */
  message?: (flow: TaintFlow, what: string, where: string, sent: number | undefined) => string;
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
    // The check stops the plain attack; what it misses is worth a comment, not a blocked merge.
    severityOf: (flow) => (flow.slashChecked ? 'warning' : undefined),
    message: (flow, what, where) =>
      flow.slashChecked
        ? `Open redirect: ${what}${where}; it is checked to start with \`/\` and not \`//\`, but \`/\\evil.example\` passes both checks and browsers follow it to another host; reject a backslash too, or redirect only to paths on an allow-list.`
        : `Open redirect: ${what}${where} and reaches this redirect unchecked; ${RULES[601]?.advice}.`,
  },
  501: {
    slug: 'trust-boundary',
    title: 'Trust boundary violation',
    // Medium in CVSS (5.4), as log injection: the value matters only where later code trusts it.
    severity: 'warning',
    cvss: 5.4,
    advice: 'validate it before storing it in the session, where later code will trust it',
  },
  // Scoped sources (flow-spec.ts ScopedSpec): what a value is, not where it came from.
  330: {
    slug: 'weak-random',
    title: 'Predictable random value',
    severity: 'important',
    cvss: 7.4,
    advice:
      'draw it from a cryptographic generator (java.security.SecureRandom, Python secrets, crypto.randomBytes, crypto/rand, SecureRandom in Ruby)',
    detects: 'a value from a non-cryptographic random generator becomes a cookie, session value, token or password.',
    message: (flow, what, where) =>
      `Predictable random value: ${what}${where} and becomes this ${flow.sinkKind}, where it must not be guessable; ${RULES[330]?.advice}.`,
  },
  614: {
    slug: 'insecure-cookie',
    title: 'Cookie without Secure',
    severity: 'warning',
    cvss: 4.8,
    advice: 'set Secure on it (and HttpOnly unless a script must read it) so it is never sent over plain HTTP',
    detects: 'a cookie is sent with Secure turned off, or carries a token or session id without Secure.',
    message: (flow, what, where, sent) =>
      flow.sourceDescription === FLAG_OFF
        ? `Cookie without Secure: this cookie's Secure flag is turned off${flow.sourceLine === flow.sinkLine ? '' : ` here and the cookie is sent on line ${sent}`}, so it also goes over plain HTTP; ${RULES[614]?.advice}.`
        : `Cookie without Secure: ${what}${where} and is sent in this cookie without the Secure flag; ${RULES[614]?.advice}.`,
  },
  117: {
    slug: 'log-injection',
    title: 'Log injection',
    // Forged log lines mislead a reader; they run nothing. CVSS 5.3 is the warning band.
    severity: 'warning',
    cvss: 5.3,
    advice: 'strip line breaks from it (or log it as a structured field)',
  },
};

const PREFIX: Partial<Record<Language, string>> = {
  go: 'go',
  java: 'java',
  python: 'py',
  javascript: 'js',
  typescript: 'js',
  tsx: 'js',
  ruby: 'rb',
};

/** What each flow rule detects, by rule id (`py.flow.sql-injection`), for reports that list rules. */
export function flowRuleDescriptions(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const prefix of Object.values(PREFIX)) {
    for (const rule of Object.values(RULES)) {
      out[`${prefix}.flow.${rule.slug}`] =
        `${rule.title}: ${rule.detects ?? 'a value from outside the program reaches the sink unchecked.'}`;
    }
  }
  return out;
}

/** `stmt = text(...)`, `req := ldap.NewSearchRequest(...)`, `XPathExpression e = x.compile(...)`. */
const ASSIGNED =
  /^\s*(?:(?:const|let|var|final)\s+)*(?:[\w.]+(?:<[^=]*>)?(?:\[\])*\s+)?(\w+)(?:\s*,\s*\w+)*\s*(?::\s*[^=]+)?:?=(?!=)\s*(?:await\s+)?(?:new\s+)?([\w.:]+)\s*\(/;

/**
 * Where a query built on `line` by a call of `builder` runs: when the call is the whole value
 * stored in a variable, the first later line of the same block that names the variable; `line`
 * itself otherwise (built inline, stored nowhere, or never used there).
 */
export function useLine(lines: readonly string[], line: number, builder: string): number {
  const text = lines[line - 1] ?? '';
  const assigned = ASSIGNED.exec(text);
  const name = assigned?.[1];
  // The builder's name is the called method's, or the class's for a constructor (`Faraday.new`).
  if (name === undefined || !assigned?.[2]?.split(/[.:]+/).includes(builder)) return line;
  const indent = /^\s*/.exec(text)?.[0].length ?? 0;
  const named = new RegExp(`(?<![\\w.$@])${name}\\b`);
  for (let i = line; i < lines.length; i++) {
    const next = lines[i] ?? '';
    if (next.trim() === '') continue;
    // A line left of the assignment closes its block: the value is used nowhere after it.
    if ((/^\s*/.exec(next)?.[0].length ?? 0) < indent) break;
    if (named.test(next)) return i + 1;
  }
  return line;
}

/**
 * The line a flow is reported on: its sink's; where a flag was turned off for a flag turned off
 * (`cookie.setSecure(false)`); where the built query runs for a builder (`useLine`).
 */
function reportedLine(flow: TaintFlow, lines: readonly string[]): number {
  if (flow.sourceDescription === FLAG_OFF) return flow.sourceLine;
  return flow.atUse ? useLine(lines, flow.sinkLine, flow.atUse) : flow.sinkLine;
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
  ruleMatches: readonly RuleMatch[] = [],
): RuleMatch[] {
  return flowReview(language, root, path, source, toReal, ruleMatches).matches;
}

export interface FlowReview {
  matches: RuleMatch[];
  disproves: (match: RuleMatch) => boolean;
  /**
   * A rule's match of a CWE on the line a flow of that CWE starts from, the flow reported on
   * another added line: `new File(dir, req.getParameter("name"))` flagged by a rule, the file
   * opened two lines below. One comment, the flow's, where the value is used and naming the
   * line it came from.
   */
  repeats: (match: RuleMatch, added: ReadonlySet<number>) => boolean;
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
  ruleMatches: readonly RuleMatch[] = [],
): FlowReview {
  // A flow through a helper that a rule reports at either end, with the same CWE, is said once.
  const ruled = new Set(ruleMatches.map((m) => `${m.line}:${m.cwe}`));
  const prefix = PREFIX[language];
  const none = { matches: [], disproves: () => false, repeats: () => false };
  if (!prefix) return none;
  const lines = source.split(/\r?\n/);
  const matches: RuleMatch[] = [];
  // `${sourceLine}:CWE-n` -> the lines its flows are reported on.
  const reportedFrom = new Map<string, number[]>();
  let flows: TaintFlow[];
  let constantSinks: Set<string>;
  try {
    const prove = ruleMatches.filter((m) => m.type === 'security' && m.cwe !== undefined).map((m) => m.line);
    ({ flows, constantSinks } = analyzeFlows(language, root, prove));
  } catch {
    // A tree the adapters do not expect costs this file its flow comments, never the review.
    return none;
  }
  for (const flow of flows) {
    const rule = RULES[flow.cwe];
    if (!rule) continue;
    if (flow.callLine !== undefined && ruled.has(`${flow.callLine}:CWE-${flow.cwe}`)) continue;
    const sinkLine = reportedLine(flow, lines);
    const origin = `${flow.sourceLine}:CWE-${flow.cwe}`;
    reportedFrom.set(origin, [...(reportedFrom.get(origin) ?? []), sinkLine]);
    const code = (lines[sinkLine - 1] ?? '').trim();
    const from = toReal(flow.sourceLine);
    const what = flow.variable
      ? `\`${flow.variable}\` comes from ${flow.sourceDescription}`
      : `a value comes from ${flow.sourceDescription}`;
    const where = from === undefined ? '' : ` on line ${from}`;
    const ruleId = `${prefix}.flow.${rule.slug}`;
    matches.push({
      ruleId,
      type: 'security',
      severity: rule.severityOf?.(flow) ?? rule.severity,
      message:
        rule.message?.(flow, what, where, toReal(flow.sinkLine)) ??
        `${rule.title}: ${what}${where} and reaches this ${flow.sinkKind} unchecked; ${rule.advice}.`,
      path,
      line: sinkLine,
      startLine: sinkLine,
      endLine: sinkLine,
      snippet: code.slice(0, 200),
      code: `${code}\0${flow.variable ?? ''}`,
      cwe: `CWE-${flow.cwe}`,
      cvss: rule.cvss,
    });
  }
  const disproves = (match: RuleMatch) =>
    match.type === 'security' && constantSinks.has(`${match.line}:${match.cwe?.replace(/^CWE-/, '')}`);
  const repeats = (match: RuleMatch, added: ReadonlySet<number>) =>
    match.type === 'security' &&
    (reportedFrom.get(`${match.line}:${match.cwe}`) ?? []).some((line) => line !== match.line && added.has(line));
  return { matches, disproves, repeats };
}
