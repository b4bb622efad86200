import type { Clock } from '../../src/common/clock.js';

export interface TestClock extends Clock {
  set(date: Date | string): void;
  advance(ms: number): void;
}

/** A clock tests move by hand; starts at the given instant (default: the real now). */
export function testClock(start: Date | string = new Date()): TestClock {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (date) => {
      current = new Date(date);
    },
    advance: (ms) => {
      current = new Date(current.getTime() + ms);
    },
  };
}
