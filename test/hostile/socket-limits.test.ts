import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { parseResponse, rawConnection } from './raw-connection.js';

/**
 * Issue 8 over a real socket: what `inject` cannot show. Oversized, deep and malformed requests
 * get a spec 7.1 answer and a closed connection; slow clients are cut off by the server's
 * time-outs (set short here through the configuration); the process keeps serving throughout.
 */

let normal: TestApp;
let strict: TestApp;
let key = '';
const ports = { normal: 0, strict: 0 };

beforeAll(async () => {
  normal = await createTestApp();
  // The same database, served with time-outs short enough to watch them fire.
  strict = await createTestApp({
    database: normal.database,
    env: {
      HTTP_HEADERS_TIMEOUT_MS: '300',
      HTTP_REQUEST_TIMEOUT_MS: '600',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '300',
      HTTP_IDLE_TIMEOUT_MS: '5000',
    },
  });
  const { user } = await normal.createUser();
  key = await normal.createToken(user.id);
  for (const [name, t] of [
    ['normal', normal],
    ['strict', strict],
  ] as const) {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    ports[name] = (t.app.server.address() as AddressInfo).port;
  }
});

afterAll(async () => {
  await strict?.close();
  await normal?.close();
});

/** The general error shape, its request id equal to the header. */
function expectErrorAnswer(text: string, status: number) {
  const response = parseResponse(text);
  expect(response.status).toBe(status);
  const body = JSON.parse(response.body);
  expect(body.error).toMatchObject({ status, code: expect.any(String), message: expect.any(String) });
  expect(body.meta.request_id).toMatch(/^req_/);
  expect(response.headers['x-request-id']).toBe(body.meta.request_id);
  return body;
}

async function stillServing(port: number) {
  const res = await fetch(`http://127.0.0.1:${port}/healthz`);
  expect(res.status).toBe(200);
}

/** Writes `text` on a new connection and waits until the server closes it; returns what came back. */
async function sendRaw(port: number, text: string): Promise<string> {
  const connection = rawConnection(port);
  connection.socket.write(text);
  await connection.closed();
  return connection.received();
}

/** Writes `start`, then one more byte every 50 ms, until the server closes the connection. */
async function drip(port: number, start: string): Promise<string> {
  const connection = rawConnection(port);
  connection.socket.write(start);
  const timer = setInterval(() => connection.socket.write('a'), 50);
  try {
    await connection.closed();
  } finally {
    clearInterval(timer);
  }
  return connection.received();
}

const post = (length: string, body = '') =>
  `POST /v1/reviews HTTP/1.1\r\nHost: redline.test\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\n${length}\r\n${body}`;

describe('large and deep bodies', () => {
  it('answers a body over 1 MiB with 413 in the error shape and closes the connection', async () => {
    const size = 2 * 1024 * 1024;
    const received = await sendRaw(
      ports.normal,
      post(`Content-Length: ${size}\r\n`, `{"a":"${'x'.repeat(size - 8)}"}`),
    );
    expect(expectErrorAnswer(received, 413).error.message).toBe('Request body is larger than 1 MiB');
    await stillServing(ports.normal);
  });

  it('answers a chunked body that grows past 1 MiB with 413 and closes the connection', async () => {
    const connection = rawConnection(ports.normal);
    connection.socket.write(post('Transfer-Encoding: chunked\r\n'));
    // 2 MiB in 64 KiB chunks, never terminated: the server must stop reading on its own.
    for (let i = 0; i < 32; i++) connection.socket.write(`10000\r\n${'y'.repeat(0x10000)}\r\n`);
    await connection.closed();
    expectErrorAnswer(connection.received(), 413);
    await stillServing(ports.normal);
  });

  it('answers 100,000 levels of nested arrays or objects with 400, not a crash', async () => {
    const depth = 100_000;
    const bodies = [
      '['.repeat(depth) + ']'.repeat(depth),
      `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
      // secure-json-parse walks bodies naming __proto__: the walk must not recurse either.
      `{"__proto__":${'{"a":'.repeat(depth)}1${'}'.repeat(depth + 1)}`,
      `{"pull_request_url":"https://github.com/a/b/pull/1","x":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    ];
    for (const body of bodies) {
      const res = await fetch(`http://127.0.0.1:${ports.normal}/v1/reviews`, {
        method: 'POST',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body,
      });
      expect([400, 413]).toContain(res.status);
      const answer = (await res.json()) as { meta: { request_id: string } };
      expect(answer.meta.request_id).toBe(res.headers.get('x-request-id'));
    }
    await stillServing(ports.normal);
  });
});

describe('malformed requests', () => {
  it('answers headers over 16 KiB with 431 in the error shape and keeps serving', async () => {
    const big = `GET /healthz HTTP/1.1\r\nHost: redline.test\r\nX-Big: ${'z'.repeat(20_000)}\r\n\r\n`;
    expectErrorAnswer(await sendRaw(ports.normal, big), 431);
    await stillServing(ports.normal);
  });

  it('answers bytes that are not HTTP with 400 in the error shape', async () => {
    expectErrorAnswer(await sendRaw(ports.normal, 'GET / HTTP/9.9\r\n\u0000\u0001\r\n\r\n'), 400);
    await stillServing(ports.normal);
  });
});

describe('slow clients', () => {
  it('cuts off a client that sends its headers a byte at a time (slowloris) with 408', async () => {
    expectErrorAnswer(await drip(ports.strict, 'GET /healthz HTTP/1.1\r\nHost: redline.test\r\nX-Slow: '), 408);
    await stillServing(ports.strict);
  });

  it('cuts off a client that opens a connection and sends nothing', async () => {
    expectErrorAnswer(await sendRaw(ports.strict, ''), 408);
  });

  it('cuts off a client that sends its body a byte at a time with 408', async () => {
    expectErrorAnswer(await drip(ports.strict, post('Content-Length: 100000\r\n', '{"pull_request_url":"')), 408);
    await stillServing(ports.strict);
  });

  it('closes an idle keep-alive connection after answering', async () => {
    const received = await sendRaw(ports.strict, 'GET /healthz HTTP/1.1\r\nHost: redline.test\r\n\r\n');
    expect(parseResponse(received).status).toBe(200);
    // One answer and nothing after it: the close came from the keep-alive time-out, not an error.
    expect(received.match(/HTTP\/1\.1 /g)).toHaveLength(1);
  });
});
