import { createHash } from 'node:crypto';
import type { Analysis } from '../db/schema.js';
import type { ChangedFile, Finding } from '../engine/types.js';

/**
 * Decisions §2: test reviews never call GitHub and their results depend only on the pull-request
 * URL. Number 1 completes clean, 2 completes with a critical security and an important bug
 * comment, 3 fails (every time), any other number draws from a generator seeded by the URL.
 */
export type TestOutcome =
  | { kind: 'fail'; code: string; message: string }
  | { kind: 'complete'; files: ChangedFile[]; findings: Finding[]; analysis: Analysis; summary: string };

const CATALOG: Omit<Finding, 'file' | 'line' | 'fingerprint'>[] = [
  {
    type: 'security',
    severity: 'critical',
    ruleId: 'js.sql-injection',
    message:
      'SQL built by string concatenation with request data: an attacker can change the query. Use a parameterised query.',
    suggestion: "db.query('SELECT * FROM users WHERE id = $1', [req.params.id])",
    codeSnippet: "db.query('SELECT * FROM users WHERE id = ' + req.params.id)",
    cwe: 'CWE-89',
    cvssScore: 9.8,
  },
  {
    type: 'bug',
    severity: 'important',
    ruleId: 'js.floating-promise',
    message: 'This promise is neither awaited nor handled: its failure is lost and the caller continues too early.',
    suggestion: 'await saveUser(user);',
    codeSnippet: 'saveUser(user);',
  },
  {
    type: 'performance',
    severity: 'warning',
    ruleId: 'js.await-in-loop',
    message: 'A query awaited inside a loop runs one round trip per item; batch it or run the calls together.',
    codeSnippet: 'for (const id of ids) { await load(id); }',
  },
  {
    type: 'style',
    severity: 'info',
    ruleId: 'js.debug-output',
    message: 'Debug output left behind.',
    codeSnippet: 'console.log(user);',
  },
  {
    type: 'suggestion',
    severity: 'info',
    ruleId: 'general.long-function',
    message: 'This function is long; splitting it would make it easier to test.',
  },
];

const FILES = [
  'src/api/users.js',
  'src/db/queries.js',
  'src/services/billing.ts',
  'lib/report.py',
  'cmd/server/main.go',
];

/** A small deterministic generator (mulberry32) seeded from the URL's hash. */
function generator(url: string): () => number {
  let state = createHash('sha256').update(url).digest().readUInt32BE(0);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function finding(template: (typeof CATALOG)[number], file: string, line: number): Finding {
  return {
    ...template,
    file,
    line,
    fingerprint: createHash('sha256').update(`${template.ruleId}:${file}:${line}`).digest('hex').slice(0, 16),
  };
}

function outcome(files: ChangedFile[], findings: Finding[], seed: number, summary: string): TestOutcome {
  const added = files.reduce((s, f) => s + f.additions, 0);
  return {
    kind: 'complete',
    files,
    findings,
    analysis: {
      files_analyzed: files.length,
      lines_analyzed: added,
      complexity_avg: Math.round((2 + seed * 6) * 10) / 10,
      test_coverage: Math.round(seed * 100),
      processing_time_ms: 800 + Math.floor(seed * 1200),
      tokens_used: 0,
    },
    summary,
  };
}

export function testModeOutcome(url: string, number: number): TestOutcome {
  const next = generator(url);
  if (number === 3) {
    return { kind: 'fail', code: 'test_failure', message: 'Test pull request #3 always fails (test mode).' };
  }
  const fileCount = number <= 2 ? 2 : 1 + Math.floor(next() * FILES.length);
  const files: ChangedFile[] = FILES.slice(0, fileCount).map((path) => ({
    path,
    status: 'modified',
    additions: 5 + Math.floor(next() * 60),
    deletions: Math.floor(next() * 30),
  }));
  const seed = next();
  if (number === 1)
    return outcome(files, [], seed, 'Test mode: a clean change. No issues found; this would be approved.');
  if (number === 2) {
    const [sqlInjection, floatingPromise] = CATALOG as [(typeof CATALOG)[number], (typeof CATALOG)[number]];
    const findings = [finding(sqlInjection, FILES[0] as string, 42), finding(floatingPromise, FILES[1] as string, 17)];
    return outcome(
      files,
      findings,
      seed,
      'Test mode: a critical SQL injection and an unawaited promise; this would request changes.',
    );
  }
  const count = Math.floor(next() * 5);
  const findings = Array.from({ length: count }, () => {
    const template = CATALOG[Math.floor(next() * CATALOG.length)] as (typeof CATALOG)[number];
    const file = files[Math.floor(next() * files.length)] as ChangedFile;
    return finding(template, file.path, 1 + Math.floor(next() * Math.max(1, file.additions)));
  });
  return outcome(
    files,
    findings,
    seed,
    count === 0 ? 'Test mode: no issues found.' : `Test mode: ${count} issue(s) found in ${files.length} file(s).`,
  );
}
