import { describe, expect, it } from 'vitest';
import { batchCalls } from '../../src/common/batch-calls.js';

const tick = () => new Promise((r) => setImmediate(r));

/** A run that records each batch it was given and answers when the test says so. */
function gatedRun() {
  const batches: number[][] = [];
  const gates: Array<() => void> = [];
  const run = (inputs: number[]) => {
    batches.push(inputs);
    return new Promise<string[]>((resolve) => {
      gates.push(() => resolve(inputs.map((n) => `answer ${n}`)));
    });
  };
  const openNext = async () => {
    const gate = gates.shift();
    if (gate === undefined) throw new Error('no batch is waiting');
    gate();
    // The batch's end schedules the next flush for the following phase.
    await tick();
    await tick();
  };
  return { run, batches, openNext };
}

describe('batchCalls', () => {
  it('runs the calls of one event-loop phase as one batch and answers each caller its own output', async () => {
    const calls: number[][] = [];
    const square = batchCalls(async (inputs: number[]) => {
      calls.push(inputs);
      return inputs.map((n) => n * n);
    });
    const answers = await Promise.all([3, 1, 4, 1, 5].map((n) => square(n)));
    expect(answers).toEqual([9, 1, 16, 1, 25]);
    expect(calls).toEqual([[3, 1, 4, 1, 5]]);
  });

  it('gathers the calls made while maxInFlight batches are out into the next batch', async () => {
    const { run, batches, openNext } = gatedRun();
    const call = batchCalls(run, { maxInFlight: 2 });
    const first = call(1);
    await tick();
    const second = call(2);
    await tick();
    // Two batches out: these wait, together.
    const waiting = [call(3), call(4), call(5)];
    await tick();
    expect(batches).toEqual([[1], [2]]);
    await openNext();
    expect(await first).toBe('answer 1');
    expect(batches).toEqual([[1], [2], [3, 4, 5]]);
    await openNext();
    await openNext();
    expect(await second).toBe('answer 2');
    expect(await Promise.all(waiting)).toEqual(['answer 3', 'answer 4', 'answer 5']);
  });

  it('splits a batch larger than maxBatch', async () => {
    const sizes: number[] = [];
    const call = batchCalls(
      async (inputs: number[]) => {
        sizes.push(inputs.length);
        return inputs.map((n) => -n);
      },
      { maxBatch: 4, maxInFlight: 1 },
    );
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => call(i)));
    expect(answers).toEqual(Array.from({ length: 10 }, (_, i) => -i));
    expect(sizes).toEqual([4, 4, 2]);
  });

  it('rejects every call of a failed batch with its error, and runs the next batch as usual', async () => {
    let fail = true;
    // One batch at a time: a failed batch that kept its slot would leave the next call waiting.
    const call = batchCalls(
      async (inputs: string[]) => {
        if (fail) throw new Error('database unavailable');
        return inputs.map((s) => s.toUpperCase());
      },
      { maxInFlight: 1 },
    );
    const failed = await Promise.allSettled([call('a'), call('b')]);
    expect(failed.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : r.value))).toEqual([
      'database unavailable',
      'database unavailable',
    ]);
    fail = false;
    expect(await Promise.all([call('c'), call('d')])).toEqual(['C', 'D']);
  });

  it('rejects the calls of a run that throws before its promise, or answers the wrong number of outputs', async () => {
    const throwing = batchCalls((_inputs: number[]): Promise<number[]> => {
      throw new Error('bad statement');
    });
    await expect(throwing(1)).rejects.toThrow('bad statement');
    const short = batchCalls(async (inputs: number[]) => inputs.slice(1));
    const answers = await Promise.allSettled([short(1), short(2)]);
    expect(answers.map((r) => r.status === 'rejected' && (r.reason as Error).message)).toEqual([
      'batch answered 1 outputs for 2 inputs',
      'batch answered 1 outputs for 2 inputs',
    ]);
  });

  it('batches calls made in separate callbacks of one event-loop phase (as requests parsed together)', async () => {
    const calls: number[][] = [];
    const double = batchCalls(async (inputs: number[]) => {
      calls.push(inputs);
      return inputs.map((n) => 2 * n);
    });
    // Each request reaches its statement from a callback of its own, after awaits of its own: a
    // flush at the end of each callback (a microtask) would give every request its own batch.
    const answers = await Promise.all(
      [1, 2, 3].map(
        (n) =>
          new Promise<number>((resolve, reject) => {
            setImmediate(() => {
              Promise.resolve()
                .then(() => double(n))
                .then(resolve, reject);
            });
          }),
      ),
    );
    expect(answers).toEqual([2, 4, 6]);
    expect(calls).toEqual([[1, 2, 3]]);
  });

  it('rejects a call still waiting for its batch after maxWaitMs, and serves the calls after it', async () => {
    const { run, batches, openNext } = gatedRun();
    const call = batchCalls(run, {
      maxInFlight: 1,
      maxWaitMs: 20,
      waitTimeout: () => new Error('no slot within 20 ms'),
    });
    const first = call(1);
    await tick();
    const stuck = call(2);
    await expect(stuck).rejects.toThrow('no slot within 20 ms');
    // The expired call left the queue: it is in no batch, and a later call gets the next one.
    const later = call(3);
    await openNext();
    expect(await first).toBe('answer 1');
    await openNext();
    expect(await later).toBe('answer 3');
    expect(batches).toEqual([[1], [3]]);
  });
});
