import { describe, expect, it } from 'vitest';
import { prefixedName, prefixMetavars } from '../../../src/engine/rules/prefix-metavars.js';

describe('prefixMetavars', () => {
  it('renames single, multiple and unnamed-node captures, not the anonymous ones', () => {
    expect(prefixMetavars('$A.query($$$ARGS) + $$OP + $_ + $_X + $$$', 'R3_')).toBe(
      '$R3_A.query($$$R3_ARGS) + $$R3_OP + $_ + $_X + $$$',
    );
    expect(prefixMetavars('foo($a, $1)', 'R3_')).toBe('foo($a, $1)');
    expect(prefixedName('A', 'R3_')).toBe('R3_A');
    expect(prefixedName('_A', 'R3_')).toBe('_A');
    expect(prefixedName('A', '')).toBe('A');
  });
});
