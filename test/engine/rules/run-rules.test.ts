import { describe, expect, it } from 'vitest';
import { javaRules, javascriptRules } from '../../../src/engine/rules/packs/index.js';
import type { Rule } from '../../../src/engine/rules/rule-schema.js';
import { type RunRulesInput, runRules } from '../../../src/engine/rules/run-rules.js';

const rule = (id: string): Rule => {
  const found = javascriptRules.find((r) => r.id === id);
  if (!found) throw new Error(`no rule ${id}`);
  return found;
};

function run(source: string, overrides: Partial<RunRulesInput> = {}) {
  return runRules({
    path: 'src/app.ts',
    language: 'typescript',
    source,
    addedLines: new Set(source.split('\n').map((_, i) => i + 1)),
    rules: javascriptRules,
    checkSecurity: true,
    checkPerformance: true,
    ...overrides,
  });
}

describe('runRules', () => {
  it('reports only matches that touch an added line, on the first added line inside', () => {
    const source = [
      'function a() {',
      '  eval(first);',
      '}',
      'try {',
      '  work();',
      '} catch (err) {',
      '}',
      'eval(second);',
    ].join('\n');
    const matches = run(source, { addedLines: new Set([7, 8]) });
    expect(matches.map((m) => [m.ruleId, m.line, m.startLine, m.endLine])).toEqual([
      ['js.empty-catch', 7, 6, 7],
      ['js.eval', 8, 8, 8],
    ]);
    expect(run(source, { addedLines: new Set() })).toEqual([]);
  });

  it('carries the rule data, the path and a trimmed one-line snippet', () => {
    const [match] = run('const q = 1;\n    eval(req.body.expression + "x".repeat(300));\n');
    expect(match).toMatchObject({
      ruleId: 'js.eval',
      type: 'security',
      severity: 'critical',
      path: 'src/app.ts',
      line: 2,
      cwe: 'CWE-95',
      cvss: 9.8,
      snippet: 'eval(req.body.expression + "x".repeat(300))',
    });
    const long = `eval(${'a'.repeat(300)});`;
    expect(run(long)[0]?.snippet).toHaveLength(200);
    const multi = run('try {\n  x();\n} catch (e) {\n}\n');
    expect(multi[0]?.snippet).toBe('catch (e) {');
  });

  it('renders a fix with the metavariables into the whole line', () => {
    const [assign] = run('  if (user.role = "admin") grant();');
    expect(assign?.ruleId).toBe('js.assignment-in-condition');
    expect(assign?.suggestion).toBe('  if (user.role === "admin") grant();');

    const [loop] = run('for (let i = 0; i <= items.length; i++) sum += items[i];', {
      rules: [rule('js.off-by-one-loop')],
    });
    expect(loop?.suggestion).toBe('for (let i = 0; i < items.length; i++) sum += items[i];');

    // $$$ARGS keeps the arguments' own text, separators included.
    const [fs] = run('async function f() {\n  fsp.writeFile(file,  data, { flag: "w" }); // save\n}');
    expect(fs?.ruleId).toBe('js.missing-await-fs');
    expect(fs?.suggestion).toBe('  await fsp.writeFile(file,  data, { flag: "w" }); // save');

    // Columns are UTF-16 code units, like JavaScript strings.
    const [emoji] = run('const s = "😀"; if (a = b) go(s);', { rules: [rule('js.assignment-in-condition')] });
    expect(emoji?.suggestion).toBe('const s = "😀"; if (a === b) go(s);');
  });

  it('gives no suggestion for a rule without a fix or a match over several lines', () => {
    expect(run('eval(code);')[0]?.suggestion).toBeUndefined();
    const [multi] = run('if (flag =\n  compute()) go();', { rules: [rule('js.assignment-in-condition')] });
    expect(multi?.line).toBe(1);
    expect(multi?.suggestion).toBeUndefined();
  });

  it('skips security rules without checkSecurity and performance rules without checkPerformance', () => {
    const source = [
      'async function f(ids, code) {',
      '  eval(code);',
      '  for (const id of ids) await db.find(id);',
      '  debugger;',
      '}',
    ].join('\n');
    const ids = (o: Partial<RunRulesInput>) => run(source, o).map((m) => m.ruleId);
    expect(ids({})).toEqual(['js.eval', 'js.await-in-loop', 'js.debugger']);
    expect(ids({ checkSecurity: false })).toEqual(['js.await-in-loop', 'js.debugger']);
    expect(ids({ checkPerformance: false })).toEqual(['js.eval', 'js.debugger']);
    expect(ids({ checkSecurity: false, checkPerformance: false })).toEqual(['js.debugger']);
  });

  it('runs only the rules of the language family', () => {
    const pythonOnly: Rule = { ...rule('js.debugger'), id: 'py.debugger', languages: ['python'] };
    expect(run('debugger;', { rules: [pythonOnly] })).toEqual([]);
    for (const language of ['javascript', 'typescript', 'tsx'] as const) {
      expect(run('debugger;', { language }).map((m) => m.ruleId)).toEqual(['js.debugger']);
    }
  });

  it('never throws on broken code and still finds what parses', () => {
    // A hunk's new side alone: unbalanced braces, a statement cut in half.
    const hunk = '    }\n    eval(input);\n  } else {\n    const x = compute(\n';
    expect(run(hunk).map((m) => m.ruleId)).toEqual(['js.eval']);
    const garbage = 'function (( {\n  eval(input);\n  const = ;\n}}}}\n<<<<<<< HEAD\n';
    expect(() => run(garbage)).not.toThrow();
    expect(run('')).toEqual([]);
    expect(() => run('\u0000\uFFFF'.repeat(100))).not.toThrow();
  });

  it('skips a rule ast-grep cannot compile instead of failing the file', () => {
    const bad: Rule = { ...rule('js.debugger'), id: 'js.bad', rule: { kind: 'no_such_kind_anywhere' } };
    expect(run('debugger;', { rules: [bad, rule('js.debugger')] }).map((m) => m.ruleId)).toEqual(['js.debugger']);
  });

  it('reports one match per rule and line', () => {
    const matches = run('eval(a); eval(b);\neval(c);', { rules: [rule('js.eval')] });
    expect(matches.map((m) => m.line)).toEqual([1, 2]);
  });

  it('says nothing for a rule that defers, in a file where the rule it defers to comments', () => {
    const source = [
      'class ResetTokens {',
      '  private final Random random = new Random();',
      '  String newToken() {',
      '    return Long.toHexString(random.nextLong());',
      '  }',
      '}',
    ].join('\n');
    const java = (addedLines: number[]) =>
      runRules({
        path: 'src/main/java/ResetTokens.java',
        language: 'java',
        source,
        addedLines: new Set(addedLines),
        rules: javaRules,
        checkSecurity: true,
        checkPerformance: true,
      }).map((m) => [m.ruleId, m.line]);
    // The change writes the draw: the comment goes where the token is made.
    expect(java([2, 3, 4])).toEqual([['java.insecure-random', 4]]);
    // The change only swaps the generator under an unchanged draw: the field is all there is to point at.
    expect(java([2])).toEqual([['java.insecure-random-field', 2]]);
  });

  it('says a weak cipher once in a method that also makes its key, and the key alone where no cipher is', () => {
    const java = (body: string) =>
      runRules({
        path: 'src/main/java/LegacyTicket.java',
        language: 'java',
        source: `class LegacyTicket {\n  byte[] encrypt(byte[] k, byte[] p) throws Exception {\n${body}\n  }\n}`,
        addedLines: new Set([1, 2, 3, 4, 5, 6, 7]),
        rules: javaRules,
        checkSecurity: true,
        checkPerformance: true,
      })
        .filter((m) => m.ruleId === 'java.weak-cipher')
        .map((m) => m.line);
    const cipher = '    Cipher c = Cipher.getInstance("DES/ECB/PKCS5Padding");';
    const key = '    c.init(1, SecretKeyFactory.getInstance("DES").generateSecret(new DESKeySpec(k)));';
    expect(java(`${cipher}\n${key}`)).toEqual([3]);
    expect(java(key)).toEqual([3]);
  });
});
