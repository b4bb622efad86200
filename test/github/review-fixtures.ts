import { commentableLines } from '../../src/common/diff/commentable-lines.js';
import type { Finding } from '../../src/engine/types.js';

/**
 * A pull request of two files, as GitHub lists them (patches against the base). New-side lines
 * shown in the diff: src/users.ts 10-15 (11-13 added), src/util.ts 1-3 (2 added).
 */
export const FILES = [
  {
    path: 'src/users.ts',
    status: 'modified' as const,
    patch: [
      '@@ -10,3 +10,6 @@ export class Users {',
      '   constructor(private db: Db) {}',
      '+  find(id: string) {',
      '+    return this.db.query("SELECT * FROM users WHERE id = " + id);',
      '+  }',
      '   close() {}',
      ' }',
    ].join('\n'),
  },
  {
    path: 'src/util.ts',
    status: 'modified' as const,
    patch: ['@@ -1,2 +1,3 @@', ' export const a = 1;', '+export const b = compute();', ' export const c = 3;'].join(
      '\n',
    ),
  },
  { path: 'assets/logo.png', status: 'added' as const, patch: undefined },
];

export const COMMENTABLE = commentableLines(FILES);

export const SQL_INJECTION: Finding = {
  type: 'security',
  severity: 'critical',
  message: 'SQL built by concatenating values is open to SQL injection: pass the values as query parameters.',
  file: 'src/users.ts',
  line: 12,
  suggestion: '    return this.db.query("SELECT * FROM users WHERE id = $1", [id]);',
  ruleId: 'js.sql-injection',
  fingerprint: 'a1b2c3d4e5f60718',
};

let seq = 0;
/** A finding with the fields that matter to the test, the rest plausible; fingerprints unique. */
export function finding(overrides: Partial<Finding> = {}): Finding {
  seq += 1;
  return {
    type: 'bug',
    severity: 'warning',
    message: `Problem number ${seq}.`,
    file: 'src/users.ts',
    line: 11,
    ruleId: 'js.example',
    fingerprint: `f${String(seq).padStart(15, '0')}`,
    ...overrides,
  };
}

/** The inline comment body SQL_INJECTION gets: what, why, the suggested fix, and its marker. */
export const SQL_COMMENT_BODY = [
  '**critical** · security · `js.sql-injection`',
  '',
  'SQL built by concatenating values is open to SQL injection: pass the values as query parameters.',
  '',
  '```suggestion',
  '    return this.db.query("SELECT * FROM users WHERE id = $1", [id]);',
  '```',
  '',
  '<!-- redline:fingerprint=a1b2c3d4e5f60718 -->',
].join('\n');
