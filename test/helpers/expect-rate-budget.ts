import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * 120 requests of one free-plan user (100 an hour), however they were spread over instances:
 * exactly 100 answered, 20 refused 429, and the remaining counts 0..99 each given once, so no
 * request was counted twice or missed.
 */
export function expectFreeBudgetSharedExactly(answers: LightMyRequestResponse[]): void {
  expect(answers).toHaveLength(120);
  expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(100);
  expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(20);
  const remaining = answers
    .filter((a) => a.statusCode === 200)
    .map((a) => Number(a.headers['x-ratelimit-remaining']))
    .sort((a, b) => a - b);
  expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => i));
}
