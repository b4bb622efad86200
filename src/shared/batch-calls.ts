export interface BatchOptions {
  /** The most calls one batch carries. */
  maxBatch?: number;
  /** The most batches running at once; further calls wait for one to end. */
  maxInFlight?: number;
}

interface Waiting<I, O> {
  input: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Turns `run`, which answers a list of inputs with a list of outputs in the same order, into a
 * function of one input whose concurrent calls share runs. A call waits at most for the end of
 * the current event-loop phase (every request parsed in it joins the batch); while `maxInFlight`
 * batches are out, calls gather into the next one. So at low load a call runs alone and almost
 * at once, and under load N calls cost one database round trip instead of N: the statements
 * every request runs (authentication with its count, the review read) spent most of their time
 * in per-statement work, in Node and in PostgreSQL, not in the rows (bench/api-throughput).
 *
 * A batch that fails rejects each of its calls with the same error. A batch has no time limit of
 * its own: `run` must settle (the database pool's query time-out ends a lost statement).
 */
export function batchCalls<I, O>(
  run: (inputs: I[]) => Promise<O[]>,
  options: BatchOptions = {},
): (input: I) => Promise<O> {
  const maxBatch = options.maxBatch ?? 200;
  const maxInFlight = options.maxInFlight ?? 2;
  let waiting: Waiting<I, O>[] = [];
  let inFlight = 0;
  let scheduled = false;

  const start = (batch: Waiting<I, O>[]) => {
    inFlight += 1;
    let outputs: Promise<O[]>;
    try {
      outputs = run(batch.map((call) => call.input));
    } catch (error) {
      outputs = Promise.reject(error);
    }
    outputs
      .then((results) => {
        if (results.length !== batch.length) {
          throw new Error(`batch answered ${results.length} outputs for ${batch.length} inputs`);
        }
        for (const [i, call] of batch.entries()) call.resolve(results[i] as O);
      })
      .catch((error: unknown) => {
        for (const call of batch) call.reject(error);
      })
      .finally(() => {
        inFlight -= 1;
        if (waiting.length > 0) schedule();
      });
  };

  const flush = () => {
    scheduled = false;
    while (waiting.length > 0 && inFlight < maxInFlight) {
      const batch = waiting.length <= maxBatch ? waiting : waiting.slice(0, maxBatch);
      waiting = waiting.length <= maxBatch ? [] : waiting.slice(maxBatch);
      start(batch);
    }
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };

  return (input) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      schedule();
    });
}
