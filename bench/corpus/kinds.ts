import type { Severity } from '../../src/common/severity.js';
import type { FindingType } from '../../src/engine/finding-types.js';

/**
 * The problems the corpus labels, with the type and default severity a label of that kind gets.
 * A case may override the severity on one label (`«kind:severity»`), e.g. a swallowed error that
 * loses data. Conventions: critical for injection, code execution, unsafe deserialization and
 * secrets; important for XSS, path traversal, SSRF, disabled TLS, insecure randomness for secrets
 * and bugs that lose data or crash; warning for weak hashing, lesser bugs and performance; info
 * for style.
 */
export const KINDS = {
  // security, critical
  'sql-injection': { type: 'security', severity: 'critical' },
  'command-injection': { type: 'security', severity: 'critical' },
  'code-eval': { type: 'security', severity: 'critical' },
  'template-injection': { type: 'security', severity: 'critical' },
  'unsafe-deserialization': { type: 'security', severity: 'critical' },
  'hardcoded-secret': { type: 'security', severity: 'critical' },
  // security, important
  xss: { type: 'security', severity: 'important' },
  'path-traversal': { type: 'security', severity: 'important' },
  ssrf: { type: 'security', severity: 'important' },
  'tls-disabled': { type: 'security', severity: 'important' },
  'insecure-random': { type: 'security', severity: 'important' },
  // security, warning
  'weak-hash': { type: 'security', severity: 'warning' },
  // bugs
  'floating-promise': { type: 'bug', severity: 'important' },
  'assignment-in-condition': { type: 'bug', severity: 'important' },
  'off-by-one': { type: 'bug', severity: 'important' },
  'self-comparison': { type: 'bug', severity: 'warning' },
  'unreachable-code': { type: 'bug', severity: 'warning' },
  'swallowed-error': { type: 'bug', severity: 'warning' },
  // performance
  'await-in-loop': { type: 'performance', severity: 'warning' },
  'query-in-loop': { type: 'performance', severity: 'warning' },
  'sync-io-in-handler': { type: 'performance', severity: 'warning' },
  'quadratic-string': { type: 'performance', severity: 'warning' },
  'regex-or-json-in-loop': { type: 'performance', severity: 'warning' },
  // style
  'debug-output': { type: 'style', severity: 'info' },
  'commented-out-code': { type: 'style', severity: 'info' },
} as const satisfies Record<string, { type: FindingType; severity: Severity }>;

export type Kind = keyof typeof KINDS;

export function isKind(value: string): value is Kind {
  return Object.hasOwn(KINDS, value);
}
