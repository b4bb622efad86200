import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Clock } from '../common/clock.js';
import { AppError } from '../common/errors.js';
import { newId } from '../common/ids.js';
import { CURRENT_VERSION } from './api-version.js';
import { errorBody } from './error-handler.js';

/**
 * Node's `clientError`: the request could not be read at all (headers over the size limit, a
 * request not received within the time-outs, bytes that are not HTTP). No route, hook or request
 * object exists yet, so the answer is written onto the socket here, in the spec 7.1 shape with a
 * request id of its own (fastify's default writes a body of its own shape), then the socket closes.
 */
export function makeClientErrorHandler(clock: Clock) {
  return (error: Error & { code?: string }, socket: Socket) => {
    // A reset socket has nobody to answer.
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const answer =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new AppError('invalid_request', 408, 'The request was not received in time')
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? new AppError('invalid_request', 431, 'The request headers are larger than 16 KiB')
          : new AppError('invalid_request', 400, 'The request is not valid HTTP');
    const requestId = newId('req');
    // The URL is unknown (unparsed): the general shape is the one to give.
    const body = JSON.stringify(errorBody(answer, '', requestId, clock.now()));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
          `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
          `X-Request-Id: ${requestId}\r\nX-Svc-Version: ${CURRENT_VERSION}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy();
  };
}
