import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** A request as the receiver saw it: the raw body string, headers lower-cased by Node. */
export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What to answer one request with. Defaults: 200, no extra headers, empty body, at once. */
export interface ReceiverResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (the connection stays open until the sender gives up or `close()`). */
  hang?: boolean;
  /** Send the status, headers and `body`, then never finish the body. */
  hangAfterHeaders?: boolean;
}

/** Chooses the answer per request; `index` counts requests from 0. */
export type ReceiverHandler = (request: ReceivedRequest, index: number) => ReceiverResponse | Promise<ReceiverResponse>;

export interface HttpsReceiver {
  /** `https://127.0.0.1:<port>` (the certificate also covers `localhost` and `hooks.example.com`). */
  url: string;
  port: number;
  /** The self-signed certificate (PEM), to pass as the sender's extra trusted CA. */
  ca: string;
  /** Every request received, in order. */
  requests: ReceivedRequest[];
  /** TCP connections accepted so far, counted before TLS: the canary for "never connected". */
  readonly connections: number;
  /** Replaces the handler for later requests. */
  setHandler(handler: ReceiverHandler): void;
  /** Stops listening and drops open connections (hanging ones included). */
  close(): Promise<void>;
}

export interface TestCertificate {
  key: string;
  cert: string;
}

let certificate: Promise<TestCertificate> | undefined;

/**
 * A self-signed certificate for `localhost`, `hooks.example.com` (for tests whose fake resolver
 * maps that name to 127.0.0.1), 127.0.0.1 and ::1, made once per test process with
 * openssl (generated rather than committed, so it never expires in the repository).
 */
export function testCertificate(): Promise<TestCertificate> {
  certificate ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'redline-cert-'));
    try {
      const keyFile = path.join(dir, 'key.pem');
      const certFile = path.join(dir, 'cert.pem');
      await promisify(execFile)('/usr/bin/openssl', [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,DNS:hooks.example.com,IP:127.0.0.1,IP:::1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ]);
      return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8') };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return certificate;
}

/** Starts an HTTPS server on 127.0.0.1 (random port) that records requests and answers as told. */
export async function startHttpsReceiver(handler: ReceiverHandler = () => ({})): Promise<HttpsReceiver> {
  const { key, cert } = await testCertificate();
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let current = handler;

  const server = https.createServer({ key, cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const index = requests.push(received) - 1;
      let answer: ReceiverResponse;
      try {
        answer = await current(received, index);
      } catch (error) {
        answer = { status: 500, body: String(error) };
      }
      if (answer.hang) return;
      if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
      if (res.destroyed) return;
      res.writeHead(answer.status ?? 200, answer.headers);
      if (!answer.hangAfterHeaders) {
        res.end(answer.body ?? '');
        return;
      }
      res.flushHeaders();
      if (answer.body !== undefined) res.write(answer.body);
    });
  });
  server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A client that gives up mid-handshake is expected here (untrusted-certificate tests).
  server.on('tlsClientError', () => {});

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `https://127.0.0.1:${port}`,
    port,
    ca: cert,
    requests,
    get connections() {
      return connections;
    },
    setHandler(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
