export interface BatchOptions {
  /** The most calls one batch carries. */
  maxBatch?: number;
  /** The most batches running at once; further calls wait for one to end. */
  maxInFlight?: number;
  /**
   * How long a call may wait for its batch to start; past it the call is rejected with
   * `waitTimeout()`. Unset: no limit. (A statement of its own would have waited at most the
   * pool's connect time-out for a connection: the same bound applies to waiting for a batch.)
   */
  maxWaitMs?: number | undefined;
  waitTimeout?: () => Error;
}

interface Waiting<I, O> {
  input: I;
  /** performance.now() when the call was made. */
  since: number;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Turns `run`, which answers a list of inputs with a list of outputs in the same order, into a
 * function of one input whose concurrent calls share runs. A call waits at most for the end of
 * the current event-loop phase (every request parsed in it joins the batch); while `maxInFlight`
 * batches are out, calls gather into the next one. So at low load a call runs alone and almost
 * at once, and under load N calls cost one database round trip instead of N: the statement
 * every request runs (authentication with its count, and the review read along on the review
 * routes) spent most of its time in per-statement work, in Node and in PostgreSQL, not in the
 * rows (bench/api-throughput).
 *
 * A batch that fails rejects each of its calls with the same error. A batch has no time limit of
 * its own: `run` must settle (the database pool's query time-out ends a lost statement). A call
 * still waiting for its batch after `maxWaitMs` is rejected (`waitTimeout`).
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
  let deadline: NodeJS.Timeout | undefined;

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

  // Calls wait in the order they came, so the oldest is first: one timer, for its deadline.
  const expire = () => {
    deadline = undefined;
    const { maxWaitMs, waitTimeout } = options;
    if (maxWaitMs === undefined) return;
    const now = performance.now();
    let expired = 0;
    while (expired < waiting.length && (waiting[expired] as Waiting<I, O>).since + maxWaitMs <= now) expired += 1;
    if (expired > 0) {
      const error = waitTimeout?.() ?? new Error(`the call waited over ${maxWaitMs} ms for its batch to start`);
      for (const call of waiting.slice(0, expired)) call.reject(error);
      waiting = waiting.slice(expired);
    }
    armDeadline();
  };

  const armDeadline = () => {
    const oldest = waiting[0];
    if (options.maxWaitMs === undefined || deadline !== undefined || oldest === undefined) return;
    deadline = setTimeout(expire, Math.max(0, oldest.since + options.maxWaitMs - performance.now()));
    deadline.unref();
  };

  const flush = () => {
    scheduled = false;
    while (waiting.length > 0 && inFlight < maxInFlight) {
      const batch = waiting.length <= maxBatch ? waiting : waiting.slice(0, maxBatch);
      waiting = waiting.length <= maxBatch ? [] : waiting.slice(maxBatch);
      start(batch);
    }
    armDeadline();
  };

  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flush);
  };

  return (input) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ input, since: performance.now(), resolve, reject });
      schedule();
    });
}
