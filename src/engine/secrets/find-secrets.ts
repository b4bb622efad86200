import { createHash } from 'node:crypto';
import { fingerprintOf } from '../fingerprint.js';
import type { Finding } from '../types.js';
import { findGenericCredentials } from './generic-credentials.js';
import { findPrivateKeys } from './private-keys.js';
import { redactLine, snippetOf } from './redact.js';
import { CWE_HARD_CODED_CREDENTIALS } from './secret-cvss.js';
import type { SecretMatch } from './secret-match.js';
import { acceptToken, TOKEN_RULES } from './token-rules.js';
import { findUrlCredentials } from './url-credentials.js';

export interface SecretsInput {
  path: string;
  /** The added lines of one file: new line number -> text. Nothing else is read. */
  addedLines: ReadonlyMap<number, string>;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Stable across pushes and line moves; built from a hash of the secret, never the secret. */
function secretFingerprint(match: SecretMatch, path: string): string {
  return fingerprintOf(match.ruleId, path, sha256(match.secret));
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every token rule's hints in one regex: most lines hold none, and one test of this costs about a
 * seventh of asking each rule in turn. A line it rejects has no hint, so no rule would have run.
 */
const ANY_HINT = new RegExp(TOKEN_RULES.flatMap((rule) => rule.hints.map(escapeRegex)).join('|'));

function tokenMatches(lineNumber: number, text: string): SecretMatch[] {
  const matches: SecretMatch[] = [];
  if (!ANY_HINT.test(text)) return matches;
  for (const rule of TOKEN_RULES) {
    if (!rule.hints.some((h) => text.includes(h))) continue;
    for (const m of text.matchAll(rule.pattern)) {
      const secret = m.groups?.secret ?? m[0];
      if (!acceptToken(rule, secret)) continue;
      const start = m.index + m[0].length - secret.length;
      matches.push({
        ruleId: rule.ruleId,
        severity: 'critical',
        message: rule.message(secret),
        cwe: CWE_HARD_CODED_CREDENTIALS,
        cvss: rule.cvss,
        line: lineNumber,
        start,
        end: start + secret.length,
        secret,
      });
    }
  }
  return matches;
}

/**
 * Known formats first, then passwords in URLs, then the generic rule: a later candidate that
 * overlaps an earlier one is the same secret seen twice. Coverage is marked per character, so
 * many secrets on one long line still cost linear time.
 */
function lineMatches(path: string, lineNumber: number, text: string, keys: SecretMatch[]): SecretMatch[] {
  const candidates = [
    ...keys,
    ...tokenMatches(lineNumber, text),
    ...findUrlCredentials(lineNumber, text),
    ...findGenericCredentials(path, lineNumber, text),
  ];
  if (candidates.length <= 1) return candidates;
  const covered = new Uint8Array(text.length + 1);
  const taken: SecretMatch[] = [];
  for (const candidate of candidates) {
    const end = Math.max(candidate.end, candidate.start + 1);
    let free = true;
    for (let i = candidate.start; i < end && free; i++) if (covered[i] === 1) free = false;
    if (!free) continue;
    covered.fill(1, candidate.start, end);
    taken.push(candidate);
  }
  return taken.sort((a, b) => a.start - b.start);
}

/**
 * Secrets committed in a file's added lines: known token formats (cloud, VCS, chat, payment and
 * AI providers, Redline's own), private keys (over consecutive added lines), passwords in URLs,
 * and long random literals assigned to credential-like names. Pure; linear in the input.
 */
export function findSecrets(input: SecretsInput): Finding[] {
  const { path, addedLines } = input;
  const numbers = [...addedLines.keys()].sort((a, b) => a - b);
  const keyBodyLines = new Set<number>();
  const findings: Finding[] = [];
  for (const lineNumber of numbers) {
    if (keyBodyLines.has(lineNumber)) continue;
    const text = addedLines.get(lineNumber) ?? '';
    let keys: SecretMatch[] = [];
    if (text.includes('-----BEGIN ')) {
      const found = findPrivateKeys(lineNumber, text, addedLines);
      keys = found.matches;
      for (const n of found.bodyLines) keyBodyLines.add(n);
    }
    const matches = lineMatches(path, lineNumber, text, keys);
    if (matches.length === 0) continue;
    const redacted = redactLine(text, matches);
    for (const match of matches) {
      findings.push({
        type: 'security',
        severity: match.severity,
        message: match.message,
        file: path,
        line: lineNumber,
        codeSnippet: snippetOf(redacted, match),
        ruleId: match.ruleId,
        fingerprint: secretFingerprint(match, path),
        cwe: match.cwe,
        cvssScore: match.cvss,
      });
    }
  }
  return findings;
}
