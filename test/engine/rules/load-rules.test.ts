import { describe, expect, it } from 'vitest';
import { loadRules, RulePackError } from '../../../src/engine/rules/load-rules.js';
import { javascriptRules, RULES } from '../../../src/engine/rules/packs/index.js';

const valid = {
  id: 'js.sample',
  languages: ['javascript'],
  type: 'bug',
  severity: 'warning',
  message: 'A sample rule that says what is wrong and why.',
  rule: { kind: 'debugger_statement' },
};

function problemsOf(packs: unknown[]): string[] {
  try {
    loadRules(packs);
  } catch (error) {
    if (error instanceof RulePackError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadRules', () => {
  it('flattens valid packs in order', () => {
    const rules = loadRules([[valid], [{ ...valid, id: 'js.other' }]]);
    expect(rules.map((r) => r.id)).toEqual(['js.sample', 'js.other']);
  });

  it('names the rule and the field of every problem, all at once', () => {
    const problems = problemsOf([
      [
        { ...valid, id: 'js.no-cwe', type: 'security' },
        { ...valid, id: 'js.short', message: 'too short' },
        { ...valid, id: 'js.bad-lang', languages: ['cobol'] },
        { ...valid, id: 'js.bad-cvss', cvss: 11 },
        { ...valid, id: 'Bad Id' },
        { ...valid, id: undefined },
      ],
    ]);
    expect(problems).toHaveLength(6);
    expect(problems[0]).toMatch(/^js\.no-cwe: cwe: security rules need a cwe/);
    expect(problems[1]).toMatch(/^js\.short: message: /);
    expect(problems[2]).toMatch(/^js\.bad-lang: languages\.0: /);
    expect(problems[3]).toMatch(/^js\.bad-cvss: cvss: /);
    expect(problems[4]).toMatch(/^Bad Id: id: must look like <pack>\.<name>/);
    expect(problems[5]).toMatch(/^#5 \(no id\): id: /);
  });

  it('checks every field', () => {
    expect(
      problemsOf([
        [
          { ...valid, id: 'js.a', languages: [] },
          { ...valid, id: 'js.b', type: 'typo' },
          { ...valid, id: 'js.c', severity: 'high' },
          { ...valid, id: 'js.d', rule: 'kind: identifier' },
          { ...valid, id: 'js.e', constraints: [] },
          { ...valid, id: 'js.f', fix: 3 },
          { ...valid, id: 'js.g', type: 'security', cwe: '89' },
          { ...valid, id: 'js.h', cvss: Number.NaN },
          { ...valid, id: 'js.i', languages: 'javascript', message: 7 },
        ],
      ]),
    ).toEqual([
      'js.a: languages: must name at least one language',
      'js.b: type: must be one of security, performance, style, bug, suggestion',
      'js.c: severity: must be one of critical, important, warning, info',
      'js.d: rule: must be an ast-grep rule object',
      'js.e: constraints: must be an object',
      'js.f: fix: must be a string',
      'js.g: cwe: must look like CWE-89',
      'js.h: cvss: must be a number from 0 to 10',
      'js.i: languages: must be a list',
      'js.i: message: must be a string of 20 characters or more',
    ]);
  });

  it('rejects duplicate ids, within a pack and across packs', () => {
    expect(problemsOf([[valid, valid]])).toEqual(['js.sample: id: duplicate rule id']);
    expect(problemsOf([[valid], [valid]])).toEqual(['js.sample: id: duplicate rule id']);
  });

  it('checks that deferTo names another rule of the packs', () => {
    expect(problemsOf([[valid, { ...valid, id: 'js.field', deferTo: 'js.sample' }]])).toEqual([]);
    expect(
      problemsOf([
        [
          { ...valid, id: 'js.self', deferTo: 'js.self' },
          { ...valid, id: 'js.number', deferTo: 3 },
          { ...valid, id: 'js.missing', deferTo: 'js.nowhere' },
        ],
      ]),
    ).toEqual([
      "js.self: deferTo: must be another rule's id",
      "js.number: deferTo: must be another rule's id",
      'js.missing: deferTo: names no rule of the packs',
    ]);
  });

  it('reports a non-object entry', () => {
    expect(problemsOf([[42]])[0]).toMatch(/^#0 \(no id\): \(rule\): /);
  });
});

describe('RULES', () => {
  it('holds every pack, validated, the JavaScript one included', () => {
    expect(RULES.length).toBeGreaterThanOrEqual(javascriptRules.length);
    for (const r of javascriptRules) expect(RULES).toContainEqual(r);
    expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
  });
});
