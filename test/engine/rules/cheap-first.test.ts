import { describe, expect, it } from 'vitest';
import { cheapFirst } from '../../../src/engine/rules/cheap-first.js';

describe('cheapFirst', () => {
  it('checks a cheap condition before an expensive one ast-grep would run first', () => {
    // ast-grep runs `not` (composite) before `has` (relational): the walk to the root for every call.
    const rule = {
      kind: 'call_expression',
      has: { field: 'function', regex: '^console\\.log$' },
      not: { inside: { stopBy: 'end', kind: 'program', has: { kind: 'hash_bang_line' } } },
    };
    expect(cheapFirst(rule)).toEqual({
      kind: 'call_expression',
      all: [{ has: rule.has }, { not: rule.not }],
    });
  });

  it('keeps the conditions that use metavariables in their order, and the atomic keys first', () => {
    const binds = { has: { stopBy: 'end', pattern: '$A.query($B)' } };
    const reads = { not: { has: { pattern: '$A' } } };
    const cheap = { has: { field: 'name', regex: '^x$' } };
    const rule = { pattern: 'f($A)', all: [binds, reads], inside: { kind: 'block' }, has: cheap.has };
    const out = cheapFirst(rule);
    expect(out.pattern).toBe('f($A)');
    const order = out.all as object[];
    expect(order.indexOf(binds)).toBeLessThan(order.indexOf(reads));
    expect(order[0]).toEqual(cheap);
    expect(order).toHaveLength(4);
  });

  it('returns the rule itself when its order is already cheap first, or it has one condition', () => {
    const single = { kind: 'identifier', not: { regex: '^x$' } };
    expect(cheapFirst(single)).toBe(single);
    // ast-grep's order is `inside` before `has`: here the cheaper one already.
    const sorted = {
      kind: 'call_expression',
      inside: { kind: 'block' },
      has: { stopBy: 'end', kind: 'await_expression' },
    };
    expect(cheapFirst(sorted)).toBe(sorted);
  });
});
