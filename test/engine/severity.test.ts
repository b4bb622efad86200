import { describe, expect, it } from 'vitest';
import { atOrAbove, compareSeverity, SEVERITIES, type Severity } from '../../src/common/severity.js';

describe('severity order', () => {
  it('sorts the most severe first', () => {
    const mixed: Severity[] = ['info', 'critical', 'warning', 'important', 'info', 'critical'];
    expect(mixed.sort(compareSeverity)).toEqual(['critical', 'critical', 'important', 'warning', 'info', 'info']);
  });

  it.each([
    ['critical', 'critical', true],
    ['critical', 'info', true],
    ['important', 'critical', false],
    ['important', 'important', true],
    ['warning', 'important', false],
    ['warning', 'info', true],
    ['info', 'warning', false],
    ['info', 'info', true],
  ] as const)('%s is at or above %s: %s', (severity, threshold, expected) => {
    expect(atOrAbove(severity, threshold)).toBe(expected);
  });

  it('lists every severity once', () => {
    expect(new Set(SEVERITIES).size).toBe(SEVERITIES.length);
  });
});
