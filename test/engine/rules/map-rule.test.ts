import { describe, expect, it } from 'vitest';
import { mapRule } from '../../../src/engine/rules/map-rule.js';

describe('mapRule', () => {
  it('visits every rule object innermost first, keeping stopBy and field on the relation', () => {
    const seen: string[] = [];
    const rule = {
      kind: 'call_expression',
      all: [{ has: { field: 'function', regex: '^f$' } }],
      any: [{ pattern: 'f($A)' }, { not: { kind: 'x' } }],
      inside: { stopBy: { kind: 'function_declaration' }, kind: 'block' },
    };
    const out = mapRule(rule, (o) => {
      seen.push(JSON.stringify(o));
      return { ...o, seen: true };
    });
    expect(seen[0]).toBe('{"regex":"^f$"}');
    expect(seen.at(-1)).toContain('"kind":"call_expression"');
    expect(out).toMatchObject({
      seen: true,
      all: [{ seen: true, has: { field: 'function', regex: '^f$', seen: true } }],
      inside: { stopBy: { kind: 'function_declaration', seen: true }, kind: 'block', seen: true },
    });
  });

  it('gives up on what it cannot read', () => {
    for (const rule of [
      { pattern: { context: 'a', selector: 'b' } },
      { matches: 'util' },
      { nthChild: { position: 1, ofRule: { pattern: '$A' } } },
      { kind: 'x', range: { start: { line: 0, column: 0 } } },
      { has: { stopBy: 3, kind: 'x' } },
      'not an object',
    ]) {
      expect(mapRule(rule, (o) => o)).toBeUndefined();
    }
    expect(mapRule({ kind: 'x', nthChild: 2 }, (o) => o)).toEqual({ kind: 'x', nthChild: 2 });
  });
});
