// URLs that are not ASCII, or whose percent-escapes are not UTF-8, answered with the documented
// error body (400 bad_request with details[]) instead of a bare Fastify or Node error:
// - Raw bytes above 0x7F in the request line (`GET /api/companies?name=ØSTLANDET` sent
//   unencoded): Node's HTTP parser refuses the request before Fastify sees it (HPE_INVALID_URL),
//   and Fastify's client-error handler would answer its own body. No request object exists then,
//   so `clientErrorHandler` writes the response to the socket itself. Decoding such a URL and
//   serving it would need the lenient parser (insecureHTTPParser), which we keep off.
// - A percent-escape that is not UTF-8 (`?name=%C3%28`): the query parser keeps it as literal
//   text, which would be searched for as if the client meant it. The onRequest hook refuses it,
//   naming the parameter. In the path the router refuses it already (frameworkErrors, errors.ts).
// Neither the URL nor any header is echoed or logged: a path may carry a token (reconcile).
import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/index.ts';
import { errorDocsUrl } from '../../error-docs.ts';
import { ApiError, ERROR_CATALOGUE, type ErrorDetail } from '../../errors.ts';

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

const HOW = 'percent-encode the UTF-8 bytes of each such character (Ø is %C3%98)';

/** Where in the raw request line the first byte a URL may not hold sits, and what it is. */
export function rawUrlProblem(rawPacket: Buffer | undefined): ErrorDetail {
  const line = rawPacket ? rawPacket.subarray(0, Math.max(0, rawPacket.indexOf('\r\n'))) : Buffer.alloc(0);
  const start = line.indexOf(' ') + 1;
  const end = line.lastIndexOf(' HTTP/');
  const target = start > 0 && end > start ? line.subarray(start, end) : Buffer.alloc(0);
  const bad = target.findIndex((b) => b > 0x7e || b < 0x21);
  if (bad < 0) return { path: 'url', message: `is not a valid request target; ${HOW}` };
  const question = target.indexOf(0x3f); // '?'
  let path = 'path';
  if (question >= 0 && bad > question) {
    // The parameter's name, when the name itself is plain ASCII: query.<name> as validation says.
    const pair = target.subarray(Math.max(target.lastIndexOf(0x26, bad), question) + 1, bad); // after '&' or '?'
    const text = pair.toString('latin1');
    const eq = text.indexOf('=');
    path = eq > 0 && /^[A-Za-z0-9_.-]+$/.test(text.slice(0, eq)) ? `query.${text.slice(0, eq)}` : 'query';
  }
  if (target[bad] <= 0x7e) return { path, message: `has a character that must be percent-encoded; ${HOW}` };
  let utf8 = true;
  try {
    fatalUtf8.decode(target);
  } catch {
    utf8 = false;
  }
  return {
    path,
    message: utf8
      ? `has characters that are not percent-encoded; ${HOW}`
      : `has bytes that are not valid UTF-8; send text as UTF-8 and ${HOW}`,
  };
}

const STATUS_LINE: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/**
 * Fastify's `clientErrorHandler`: every request Node's parser refuses gets the documented error
 * body, with the status Fastify would have given it (408 when the request took too long, 431 for
 * headers over the limit, else 400).
 */
export function clientErrorHandler(config: Config) {
  return function onClientError(
    this: FastifyInstance,
    // Fastify types rawPacket as a JSON-ified Buffer; Node hands over the Buffer itself.
    err: Error & { code?: string; rawPacket?: unknown },
    socket: Socket,
  ): void {
    // A reset connection has nobody to answer.
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    const status = err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const error =
      status === 408
        ? 'The request did not arrive in time'
        : status === 431
          ? 'Request headers are too large'
          : err.code === 'HPE_INVALID_URL'
            ? 'The request URL is not valid: characters outside ASCII must be percent-encoded as UTF-8'
            : ERROR_CATALOGUE.bad_request.message;
    const requestId = randomUUID();
    const body = JSON.stringify({
      error,
      code: 'bad_request',
      ...(err.code === 'HPE_INVALID_URL'
        ? { details: [rawUrlProblem(Buffer.isBuffer(err.rawPacket) ? err.rawPacket : undefined)] }
        : {}),
      requestId,
      docs: errorDocsUrl(config.baseUrl, 'bad_request'),
    });
    this.log.info({ code: err.code, requestId }, 'client error');
    if (socket.writable)
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_LINE[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
      );
    else socket.destroy();
  };
}

/** The first query parameter whose percent-escapes do not decode as UTF-8, if any. */
export function invalidQueryEscape(url: string): ErrorDetail | undefined {
  const q = url.indexOf('?');
  if (q < 0) return undefined;
  for (const pair of url.slice(q + 1).split('&')) {
    if (!pair.includes('%')) continue;
    const eq = pair.indexOf('=');
    const [name, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
    for (const part of [name, value]) {
      try {
        // Only well-formed escapes are judged: a lone % stays literal text, as the parser keeps it.
        decodeURIComponent(part.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
      } catch {
        let shown: string;
        try {
          shown = decodeURIComponent(name.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
        } catch {
          shown = '';
        }
        return {
          path: /^[A-Za-z0-9_.-]+$/.test(shown) ? `query.${shown}` : 'query',
          message: `has percent-escapes that are not UTF-8; ${HOW}`,
        };
      }
    }
  }
  return undefined;
}

/** Refuses a query string with percent-escapes that are not UTF-8, before auth and validation. */
export function registerUtf8Url(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    if (!req.url.includes('%')) return;
    const detail = invalidQueryEscape(req.url);
    if (detail) throw new ApiError('bad_request', { details: [detail] });
  });
}
