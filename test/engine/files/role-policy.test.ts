import { describe, expect, it } from 'vitest';
import { applyRolePolicy, findingCategory } from '../../../src/engine/files/role-policy.js';
import { reviewChange } from '../../../src/engine/review-change.js';
import type { ChangedFile, Finding } from '../../../src/engine/types.js';
import { fakes } from '../secrets/fake-secrets.js';

const f = fakes(7);
const ALL_CHECKS = { checkSecurity: true, checkPerformance: true };

function addedFile(path: string, lines: string[]): ChangedFile {
  return {
    path,
    status: 'added',
    additions: lines.length,
    deletions: 0,
    patch: [`@@ -0,0 +1,${lines.length} @@`, ...lines.map((l) => `+${l}`)].join('\n'),
    content: `${lines.join('\n')}\n`,
  };
}

const review = (path: string, lines: string[]) =>
  reviewChange({ files: [addedFile(path, lines)] }, ALL_CHECKS).findings.map((x) => [x.ruleId, x.severity]);

const SKIP_VERIFY = [
  'package server',
  '',
  'import "crypto/tls"',
  '',
  'func client() *tls.Config {',
  '\treturn &tls.Config{InsecureSkipVerify: true}',
  '}',
];

describe('findings by file role', () => {
  it('InsecureSkipVerify is important in production and nothing in a test', () => {
    expect(review('server/client.go', SKIP_VERIFY)).toEqual([['go.tls-insecure-skip-verify', 'important']]);
    expect(review('server/client_test.go', SKIP_VERIFY)).toEqual([]);
  });

  it('a private key is critical in production and one warning in a fixture, however many blocks it holds', () => {
    const key = f.privateKeyLines();
    expect(review('deploy/server.key', key)).toEqual([['secrets.private-key', 'critical']]);
    expect(review('test/fixtures/server.key', [...key, '', ...f.privateKeyLines()])).toEqual([
      ['secrets.private-key', 'warning'],
    ]);
  });

  it('a credential guessed from its name is info in an example and nothing in docs or a test', () => {
    const line = `SECRET_KEY = '${f.pick('0123456789abcdef', 64)}'`;
    expect(review('app/settings.py', [line])).toEqual([['secrets.generic-credential', 'important']]);
    expect(review('examples/blog/settings.py', [line])).toEqual([['secrets.generic-credential', 'info']]);
    expect(review('docs/config.rst', [line])).toEqual([]);
    expect(review('tests/test_settings.py', [line])).toEqual([]);
  });

  it('printed output is kept in a test and dropped in an example, a debugger statement in both', () => {
    const lines = ['export function start() {', "  console.log('listening on port 3000');", '  debugger;', '}'];
    expect(review('src/server.js', lines)).toEqual([
      ['js.console-log', 'info'],
      ['js.debugger', 'warning'],
    ]);
    expect(review('test/server.test.js', lines)).toEqual([
      ['js.console-log', 'info'],
      ['js.debugger', 'warning'],
    ]);
    expect(review('examples/hello/index.js', lines)).toEqual([['js.debugger', 'warning']]);
  });

  it('a security rule is info in an example, and data flow is not followed there', () => {
    const view = [
      'from flask import Flask, request',
      'import subprocess',
      'app = Flask(__name__)',
      '',
      "@app.route('/run')",
      'def run():',
      "    cmd = request.args.get('cmd')",
      '    return subprocess.check_output(cmd, shell=True)',
    ];
    const production = review('app/views.py', view);
    expect(production.length).toBeGreaterThan(0);
    expect(production.every(([, severity]) => severity === 'critical' || severity === 'important')).toBe(true);
    const example = review('examples/views.py', view);
    expect(example.length).toBeGreaterThan(0);
    expect(example.every(([rule, severity]) => severity === 'info' && !String(rule).includes('.flow.'))).toBe(true);
  });

  it('a bug in a test is info, an error it catches and ignores nothing, and a known token a warning', () => {
    const finding = (ruleId: string, type: Finding['type'], severity: Finding['severity']): Finding => ({
      type,
      severity,
      ruleId,
      message: 'm',
      file: 'tests/test_app.py',
      line: 1,
      fingerprint: ruleId,
      cvssScore: type === 'security' ? 9.8 : undefined,
    });
    const out = applyRolePolicy(
      [
        finding('py.swallowed-exception', 'bug', 'warning'),
        finding('py.mutable-default-argument', 'bug', 'important'),
        finding('secrets.github-token', 'security', 'critical'),
        finding('py.query-in-loop', 'performance', 'warning'),
        finding('py.print', 'style', 'info'),
      ],
      'test',
    );
    expect(out.map((x) => [x.ruleId, x.severity, x.cvssScore])).toEqual([
      ['py.mutable-default-argument', 'info', undefined],
      // A lowered security finding's score stays within its new severity's CVSS band.
      ['secrets.github-token', 'warning', 6.9],
      ['py.print', 'info', undefined],
    ]);
  });

  it('production findings pass unchanged', () => {
    const finding: Finding = {
      type: 'performance',
      severity: 'warning',
      ruleId: 'js.await-in-loop',
      message: 'm',
      file: 'src/a.js',
      line: 1,
      fingerprint: 'x',
    };
    expect(applyRolePolicy([finding], 'production')).toEqual([finding]);
  });

  it('categories: secrets by how they are known, the complexity comment apart from style', () => {
    expect(findingCategory({ ruleId: 'secrets.private-key', type: 'security' })).toBe('private-key');
    expect(findingCategory({ ruleId: 'secrets.aws-access-key-id', type: 'security' })).toBe('known-token');
    expect(findingCategory({ ruleId: 'secrets.url-credentials', type: 'security' })).toBe('guessed-secret');
    expect(findingCategory({ ruleId: 'general.complex-function', type: 'style' })).toBe('complexity');
    expect(findingCategory({ ruleId: 'js.eval', type: 'security' })).toBe('security');
    expect(findingCategory({ ruleId: 'py.print', type: 'style' })).toBe('output');
    expect(findingCategory({ ruleId: 'java.empty-catch', type: 'bug' })).toBe('swallowed-error');
    expect(findingCategory({ ruleId: 'py.debugger', type: 'style' })).toBe('style');
  });
});
