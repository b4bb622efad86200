import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Exchange {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  status: number;
  replayed: boolean;
  /** The answer's X-Request-Id. */
  requestId: string | undefined;
  /** When the request arrived (ms since the epoch). */
  at: number;
}

export interface Canned {
  status: number;
  headers?: Record<string, string>;
  body: unknown;
}

interface Rule {
  method: string;
  path: RegExp;
  times: number;
  answer: (path: string) => Canned;
}

// Hop-by-hop and framing headers are the proxy's own business on each side.
const DROP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'content-encoding']);

/**
 * An HTTP proxy in front of the real API that records every exchange and can answer the next
 * matching requests itself (a 429 with Retry-After, a review that never finishes), so the test
 * sees what the action sent and how it reacted, while everything else reaches the real server.
 */
export class RecordingProxy {
  readonly exchanges: Exchange[] = [];
  private readonly rules: Rule[] = [];

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(target: string): Promise<RecordingProxy> {
    let proxy: RecordingProxy | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', async () => {
        const at = Date.now();
        const method = request.method ?? 'GET';
        const path = request.url ?? '/';
        const record = (status: number, replayed: boolean, requestId: string | undefined) =>
          proxy?.exchanges.push({ method, path, headers: request.headers, status, replayed, requestId, at });
        const rule = proxy?.take(method, path);
        if (rule) {
          const canned = rule.answer(path);
          record(canned.status, false, canned.headers?.['x-request-id']);
          response.writeHead(canned.status, { 'content-type': 'application/json', ...canned.headers });
          response.end(JSON.stringify(canned.body));
          return;
        }
        const headers = Object.fromEntries(
          Object.entries(request.headers).filter(([name, value]) => !DROP.has(name) && typeof value === 'string'),
        ) as Record<string, string>;
        const upstream = await fetch(`${target}${path}`, {
          method,
          headers,
          body: chunks.length > 0 ? Buffer.concat(chunks) : null,
        });
        const body = Buffer.from(await upstream.arrayBuffer());
        record(
          upstream.status,
          upstream.headers.get('idempotent-replayed') === 'true',
          upstream.headers.get('x-request-id') ?? undefined,
        );
        const back: Record<string, string> = {};
        upstream.headers.forEach((value, name) => {
          if (!DROP.has(name)) back[name] = value;
        });
        response.writeHead(upstream.status, back);
        response.end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new RecordingProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return proxy;
  }

  /** Answers the next `times` requests matching method and path with `answer` instead of the API. */
  intercept(method: string, path: RegExp, times: number, answer: (path: string) => Canned) {
    this.rules.push({ method, path, times, answer });
  }

  /** "POST /v1/reviews 201" lines, for asserting the order of what the action did. */
  calls(): string[] {
    return this.exchanges.map((e) => `${e.method} ${e.path} ${e.status}${e.replayed ? ' replayed' : ''}`);
  }

  reset() {
    this.exchanges.length = 0;
    this.rules.length = 0;
  }

  private take(method: string, path: string): Rule | undefined {
    const rule = this.rules.find((r) => r.times > 0 && r.method === method && r.path.test(path));
    if (rule) rule.times -= 1;
    return rule;
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}
