import { createRequire } from 'node:module';

/** One request as autocannon sends it. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadFigures {
  /** Average answers per second over the run. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Answers received, of any status. */
  answered: number;
  /** Requests written to the socket (answered plus those in flight when the run stopped). */
  sent: number;
  /** Socket errors, timeouts and answers other than 2xx. */
  errors: number;
  statuses: Record<string, number>;
}

interface AutocannonClient {
  setRequests(requests: LoadRequest[]): void;
}
interface AutocannonResult {
  requests: { average: number; sent: number };
  latency: { p50: number; p99: number; max: number; totalCount: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (
  options: Record<string, unknown>,
  done: (error: Error | null, result: AutocannonResult) => void,
) => unknown;

// autocannon ships no types; this is the part of its API the benches use.
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/**
 * `connections` keep-alive connections for `seconds`; connection i sends `requestFor(i)` over
 * and over (so each connection can act as its own user).
 */
export function runLoad(options: {
  url: string;
  connections: number;
  seconds: number;
  requestFor: (connection: number) => LoadRequest;
}): Promise<LoadFigures> {
  let next = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        setupClient: (client: AutocannonClient) => {
          client.setRequests([options.requestFor(next)]);
          next += 1;
        },
      },
      (error, result) => {
        if (error) return reject(error);
        const statuses = Object.fromEntries(Object.entries(result.statusCodeStats).map(([s, v]) => [s, v.count]));
        resolve({
          requestsPerSecond: Math.round(result.requests.average),
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          maxMs: result.latency.max,
          answered: result.latency.totalCount,
          sent: result.requests.sent,
          errors: result.errors + result.timeouts + result.non2xx,
          statuses,
        });
      },
    );
  });
}
