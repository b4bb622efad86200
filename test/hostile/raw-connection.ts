import net from 'node:net';
import { HANG_MS } from '../helpers/until.js';

export interface RawConnection {
  socket: net.Socket;
  /** Everything the server has sent so far. */
  received(): string;
  /** Settles when the server (or anyone) closes the socket; rejects past `waitMs` (a hang). */
  closed(waitMs?: number): Promise<void>;
}

/** A TCP connection that writes exactly the bytes a test gives it, as a hostile client would. */
export function rawConnection(port: number): RawConnection {
  const socket = net.connect(port, '127.0.0.1');
  let data = '';
  socket.on('data', (chunk) => {
    data += chunk.toString('latin1');
  });
  // The server cutting a client off mid-write is the expected outcome, not a test failure.
  socket.on('error', () => {});
  const done = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return {
    socket,
    received: () => data,
    closed: (waitMs = HANG_MS) =>
      Promise.race([
        done,
        new Promise<void>((_, reject) =>
          setTimeout(() => reject(new Error(`the server kept the connection open ${waitMs} ms`)), waitMs).unref(),
        ),
      ]),
  };
}

/** The first HTTP response in `text`: status, lower-cased headers and body. */
export function parseResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`no complete response in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    }),
  );
  const length = Number(headers['content-length'] ?? text.length);
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4, end + 4 + length) };
}
