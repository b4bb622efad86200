import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GithubRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/**
 * GitHub's REST API for one pull request, as a local HTTP server: the committed bundle runs in
 * a child process (nock cannot reach it) and posts through @actions/github's own fetch. Answers
 * the reads the action makes from `answers` (path with query -> JSON) and records every request.
 */
export class FakeGithub {
  readonly requests: GithubRequest[] = [];

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  static async start(answers: Record<string, unknown>, posted: unknown): Promise<FakeGithub> {
    let fake: FakeGithub | undefined;
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const method = request.method ?? 'GET';
        const path = request.url ?? '/';
        const text = Buffer.concat(chunks).toString('utf8');
        fake?.requests.push({ method, path, headers: request.headers, body: text ? JSON.parse(text) : undefined });
        const answer = method === 'POST' ? posted : answers[path];
        response.writeHead(answer === undefined ? 404 : 200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer ?? { message: 'Not Found' }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    fake = new FakeGithub(server, `http://127.0.0.1:${port}`);
    return fake;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) => this.server.close((error) => (error ? reject(error) : resolve())));
  }
}
